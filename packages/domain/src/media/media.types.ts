/**
 * What an asset is for; it decides the record that may take it. `moment`: a community moment
 * (the asset then becomes public). `message`: a chat message. `payment_evidence`: the evidence
 * of a payment (readable by its reviewers). `listing`: a listing's gallery (public while the listing is).
 * `menu_item`, `provider_logo`: a menu item's image and a provider's logo (public while the listing,
 * the provider, is). `dating_photo`: a dating profile's photos (to those who may browse it). `avatar`:
 * a user's picture (to signed-in users, blocks applied). docs/media.md, "Records that carry media".
 */
export const mediaPurposes = [
  "moment",
  "message",
  "payment_evidence",
  "listing",
  "menu_item",
  "provider_logo",
  "dating_photo",
  "avatar",
] as const;
export type MediaPurpose = (typeof mediaPurposes)[number];

/** The four media types an upload may declare. */
export const mediaMimeTypes = ["image/jpeg", "image/png", "image/webp", "video/mp4"] as const;
export type MediaMimeType = (typeof mediaMimeTypes)[number];

/** The image types: all a record image may be (see imageOnlyPurposes). */
export const imageMimeTypes = [
  "image/jpeg",
  "image/png",
  "image/webp",
] as const satisfies readonly MediaMimeType[];

/**
 * The purposes whose records show images only (a gallery, a menu item's image, a logo, dating
 * photos, an avatar): an upload for one of them declares an image type. Moments, messages and
 * payment evidence also take `video/mp4`.
 */
export const imageOnlyPurposes = [
  "listing",
  "menu_item",
  "provider_logo",
  "dating_photo",
  "avatar",
] as const satisfies readonly MediaPurpose[];

/** An upload URL lives 15 minutes, a read URL 5. */
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;
export const READ_URL_TTL_SECONDS = 5 * 60;

/**
 * pending: an upload URL was handed out; uploaded: the store confirmed the object with the
 * declared size and type; expired: never attached in time, its object and row are being deleted.
 */
export type MediaStatus = "pending" | "uploaded" | "expired";

/**
 * What the worker made of an uploaded asset's bytes (null until the upload is confirmed):
 * processing: queued or running; ready: the type matched its magic numbers and, for an image, its
 * metadata-free copy and variants are in the store; rejected: the bytes are not what was declared
 * or not a readable image (the asset can never be attached).
 */
export type MediaProcessing = "processing" | "ready" | "rejected";

/**
 * An asset as a read shows it: `pending` until its upload is confirmed (by the first record that
 * takes it, or `POST /media/{id}/confirm`), then its processing state. Only `ready` carries URLs.
 */
export type MediaReadStatus = "pending" | MediaProcessing;

/** What a read says of an asset (a confirmed upload of an old row without a state is `processing`). */
export const mediaReadStatus = (asset: Pick<MediaAsset, "status" | "processing">): MediaReadStatus =>
  asset.status === "pending" ? "pending" : (asset.processing ?? "processing");

/**
 * How long a client waits before asking again about an asset being processed (`Retry-After` of
 * `GET /media/{id}`): an image of a phone camera takes about a second (docs/media.md, "Benchmark").
 */
export const PROCESSING_RETRY_AFTER_SECONDS = 2;

/** The WebP variants of a processed image: about 320 px wide, and about 1280 px wide. */
export const mediaVariantWidths = { thumb: 320, display: 1280 } as const;
export type MediaVariantName = keyof typeof mediaVariantWidths;

/** A processed image's served copy or variant, as made (never wider than the original). */
export type MediaRendition = { width: number; height: number };

/** What processing recorded of a ready image (null for a video, which is checked only). */
export type ProcessedImage = MediaRendition & {
  blurhash: string;
  variants: Record<MediaVariantName, MediaRendition>;
};

/**
 * The key a new upload is PUT to: under `uploads/`, a prefix of its own that holds only what
 * clients send, so a bucket lifecycle rule can expire it (docs/media.md, "Bucket lifecycle rule").
 * Assets uploaded before this layout keep their upload key `media/<id>` (the row's object_key).
 */
export const uploadKey = (id: string) => `uploads/${id}`;

/**
 * The keys of what is served of an asset, all under `media/` and written by the server only: a
 * ready image's copy and variants, and a ready video's copy (`video`, `media/<id>`, copied from the
 * upload by processing). Derived from the asset's id, never from its upload key: the upload's
 * presigned PUT URL lives on for 15 minutes, so its bytes may change after processing. (An asset of
 * the old layout was uploaded to `media/<id>`: its video is served from there, as before.)
 */
export const servedKeys = (id: string) => ({
  video: `media/${id}`,
  full: `media/${id}.full`,
  thumb: `media/${id}.thumb.webp`,
  display: `media/${id}.display.webp`,
});

/** Every object an asset may have in the store, under either layout (for deletion), each once. */
export const allObjectKeys = (asset: { id: string; objectKey: string }): string[] => [
  ...new Set([asset.objectKey, ...Object.values(servedKeys(asset.id))]),
];

export type MediaAsset = {
  id: string;
  ownerId: string;
  purpose: MediaPurpose;
  mimeType: MediaMimeType;
  sizeBytes: number;
  /** The upload's key: `uploads/<id>` (`media/<id>` for assets of the old layout); no user data. */
  objectKey: string;
  status: MediaStatus;
  /** Private to the owner until attached to a public moment. */
  visibility: "private" | "public";
  uploadedAt: Date | null;
  /** When a record took it (an asset goes on one record only). */
  attachedAt: Date | null;
  createdAt: Date;
  /** Null until the upload is confirmed; see MediaProcessing. */
  processing: MediaProcessing | null;
  /** Why processing rejected the bytes (said to the owner). */
  rejectedReason: string | null;
  /** A ready image's served size, placeholder and variants; null otherwise. */
  image: ProcessedImage | null;
};

/** A presigned request: the client sends exactly `headers` with `method` to `url` before `expiresAt`. */
export type PresignedRequest = {
  url: string;
  method: "PUT" | "GET";
  headers: Record<string, string>;
  expiresAt: Date;
};
