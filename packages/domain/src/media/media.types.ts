/**
 * What an asset is for; it decides the record that may take it. `moment`: a community moment
 * (the asset then becomes public). `message`: a chat message. `payment_evidence`: the evidence
 * of a payment (readable by its reviewers).
 */
export const mediaPurposes = ["moment", "message", "payment_evidence"] as const;
export type MediaPurpose = (typeof mediaPurposes)[number];

/** The four media types an upload may declare. */
export const mediaMimeTypes = ["image/jpeg", "image/png", "image/webp", "video/mp4"] as const;
export type MediaMimeType = (typeof mediaMimeTypes)[number];

/** An upload URL lives 15 minutes, a read URL 5. */
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;
export const READ_URL_TTL_SECONDS = 5 * 60;

/**
 * pending: an upload URL was handed out; uploaded: the store confirmed the object with the
 * declared size and type; expired: never attached in time, its object and row are being deleted.
 */
export type MediaStatus = "pending" | "uploaded" | "expired";

export type MediaAsset = {
  id: string;
  ownerId: string;
  purpose: MediaPurpose;
  mimeType: MediaMimeType;
  sizeBytes: number;
  /** `media/<id>`: carries no user data. */
  objectKey: string;
  status: MediaStatus;
  /** Private to the owner until attached to a public moment. */
  visibility: "private" | "public";
  uploadedAt: Date | null;
  /** When a record took it (an asset goes on one record only). */
  attachedAt: Date | null;
  createdAt: Date;
};

/** A presigned request: the client sends exactly `headers` with `method` to `url` before `expiresAt`. */
export type PresignedRequest = {
  url: string;
  method: "PUT" | "GET";
  headers: Record<string, string>;
  expiresAt: Date;
};
