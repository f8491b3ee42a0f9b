import type { Actor } from "../common/actor";
import { RateLimitedError, ValidationError } from "../common/app-error";
import type { MediaDeps } from "./media.deps";
import { purposeAcceptsMimeType } from "./media.policy";
import {
  imageMimeTypes,
  type MediaAsset,
  type MediaMimeType,
  type MediaPurpose,
  type PresignedRequest,
  UPLOAD_URL_TTL_SECONDS,
  uploadKey,
} from "./media.types";
import { checkUploadQuota, UPLOAD_QUOTA_WINDOW_MS } from "./upload-quota";

export type UploadRequest = { purpose: MediaPurpose; mimeType: MediaMimeType; sizeBytes: number };

/**
 * Registers a private, pending asset under `uploads/<id>` and answers a PUT URL presigned for 15 minutes whose
 * signature covers the declared content type and length, so the store refuses other bytes. The
 * URL is signed before the row is written: without a store (503) nothing is recorded.
 *
 * The account's pending uploads are held to its quota (upload-quota.ts): the check and the insert
 * run in one transaction behind a lock on the account's row, so parallel requests cannot both take
 * the last place. Past it: 429 `rate_limited` with Retry-After and the refusing quota's RateLimit
 * headers, and nothing is recorded. A record image's purpose (a gallery, a logo, an avatar…) takes
 * image types only: `video/mp4` for it is 422 at `mime_type`, before anything is signed or recorded.
 */
export const requestUpload = async (
  deps: MediaDeps,
  actor: Actor,
  input: UploadRequest,
): Promise<{ asset: MediaAsset; upload: PresignedRequest }> => {
  if (!purposeAcceptsMimeType(input.purpose, input.mimeType)) {
    throw new ValidationError([
      {
        path: "mime_type",
        message: `an upload for ${input.purpose} is an image: one of ${imageMimeTypes.join(", ")}`,
      },
    ]);
  }
  const now = deps.clock.now();
  const id = deps.ids.next();
  const asset: MediaAsset = {
    id,
    ownerId: actor.userId,
    purpose: input.purpose,
    mimeType: input.mimeType,
    sizeBytes: input.sizeBytes,
    objectKey: uploadKey(id),
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
  await deps.uow.run(async (tx) => {
    const pending = await tx.media.lockPendingUploads(
      actor.userId,
      new Date(now.getTime() - UPLOAD_QUOTA_WINDOW_MS),
    );
    const verdict = checkUploadQuota(pending, asset.sizeBytes, deps.uploadQuota, now);
    if (!verdict.allowed) {
      const what = verdict.quota === "count" ? "uploads" : "bytes of uploads";
      throw new RateLimitedError(
        verdict.retryAfterSeconds,
        `Too many ${what} waiting to be used (at most ${verdict.limit} a day); attach or wait for them to expire.`,
        { limit: verdict.limit, remaining: verdict.remaining, resetSeconds: verdict.retryAfterSeconds },
      );
    }
    await tx.media.create(asset);
  });

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
