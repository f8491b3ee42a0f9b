import type { Actor } from "../shared/actor";
import type { MediaDeps } from "./media.deps";
import {
  type MediaAsset,
  type MediaMimeType,
  type MediaPurpose,
  type PresignedRequest,
  UPLOAD_URL_TTL_SECONDS,
} from "./media.types";

export type UploadRequest = { purpose: MediaPurpose; mimeType: MediaMimeType; sizeBytes: number };

/**
 * Registers a private, pending asset and answers a PUT URL presigned for 15 minutes whose
 * signature covers the declared content type and length, so the store refuses other bytes. The
 * URL is signed before the row is written: without a store (503) nothing is recorded.
 */
export const requestUpload = async (
  deps: MediaDeps,
  actor: Actor,
  input: UploadRequest,
): Promise<{ asset: MediaAsset; upload: PresignedRequest }> => {
  const now = deps.clock.now();
  const id = deps.ids.next();
  const asset: MediaAsset = {
    id,
    ownerId: actor.userId,
    purpose: input.purpose,
    mimeType: input.mimeType,
    sizeBytes: input.sizeBytes,
    objectKey: `media/${id}`,
    status: "pending",
    visibility: "private",
    uploadedAt: null,
    attachedAt: null,
    createdAt: now,
    processing: null,
    rejectedReason: null,
    image: null,
  };
  const headers = { "Content-Type": asset.mimeType, "Content-Length": String(asset.sizeBytes) };
  const url = await deps.objects.presignUpload(
    asset.objectKey,
    { contentType: asset.mimeType, contentLength: asset.sizeBytes },
    { at: now, expiresInSeconds: UPLOAD_URL_TTL_SECONDS },
  );
  await deps.repos.media.create(asset);

  return {
    asset,
    upload: {
      url,
      method: "PUT",
      headers,
      expiresAt: new Date(now.getTime() + UPLOAD_URL_TTL_SECONDS * 1000),
    },
  };
};
