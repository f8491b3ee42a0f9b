import { UnusableMediaError } from "./media.errors";
import type { MediaRepositories, ObjectStore } from "./media.ports";
import type { MediaAsset } from "./media.types";

/**
 * "A valid asset record does not prove the bytes were uploaded": a pending asset is checked
 * against the store (outside any transaction) and becomes `uploaded` when an object with the
 * declared size and type is there; otherwise 422 (at `path`). An uploaded asset is taken as it is.
 */
export const confirmUpload = async (
  deps: { repos: MediaRepositories; objects: ObjectStore; clock: { now(): Date } },
  asset: MediaAsset,
  path: string,
): Promise<MediaAsset> => {
  if (asset.status === "uploaded") {
    return asset;
  }
  if (asset.status === "expired") {
    throw new UnusableMediaError(path, "it was not attached within 24 hours and has been deleted");
  }
  const stored = await deps.objects.head(asset.objectKey);
  if (!stored) {
    throw new UnusableMediaError(path, "its upload has not been completed");
  }
  if (stored.sizeBytes !== asset.sizeBytes || stored.contentType !== asset.mimeType) {
    throw new UnusableMediaError(path, "the uploaded object does not match its declared size and type");
  }
  const now = deps.clock.now();
  await deps.repos.media.markUploaded(asset.id, now);

  return { ...asset, status: "uploaded", uploadedAt: now };
};
