import type { MediaAssetRepository, MediaProcessor, ObjectStore } from "./media.ports";
import { servedKeys } from "./media.types";

/** What the worker needs to process uploads: the assets, the store and the image processor. */
export type MediaProcessingDeps = {
  mediaProcessing: {
    media: Pick<MediaAssetRepository, "findById" | "recordProcessing">;
    objects: ObjectStore;
    processor: MediaProcessor;
  };
};

/**
 * Processes a confirmed upload, once (a redelivery finds it no longer `processing` and stops):
 * - bytes whose magic numbers disagree with the declared type, or an unreadable or too large image,
 *   make it `rejected` (it can never be attached; the owner sees why);
 * - an image's metadata-free copy (orientation applied) and its WebP variants are stored under
 *   their own keys, then it becomes `ready` with its size and blurhash, and its uploaded object,
 *   metadata and all, is deleted;
 * - a video (`video/mp4`, checked by type and size only) becomes `ready` as uploaded.
 * A store that does not answer throws: the outbox retries later.
 */
export const processMedia = async ({ mediaProcessing: deps }: MediaProcessingDeps, assetId: string) => {
  const asset = await deps.media.findById(assetId);
  if (asset?.status !== "uploaded" || asset.processing !== "processing") {
    return;
  }
  // The upload's signature covers its length: anything larger is not the upload.
  const bytes = await deps.objects.get(asset.objectKey, asset.sizeBytes);
  if (!bytes) {
    await deps.media.recordProcessing(asset.id, {
      processing: "rejected",
      reason: "its uploaded object is gone or not the declared size",
    });

    return;
  }
  const processed = await deps.processor.process(bytes, asset.mimeType);
  if (processed.kind === "rejected") {
    await deps.media.recordProcessing(asset.id, { processing: "rejected", reason: processed.reason });

    return;
  }
  if (processed.kind === "video") {
    await deps.media.recordProcessing(asset.id, { processing: "ready", image: null });

    return;
  }
  const keys = servedKeys(asset.objectKey);
  await deps.objects.put(keys.full, processed.full, asset.mimeType);
  await deps.objects.put(keys.thumb, processed.variants.thumb, "image/webp");
  await deps.objects.put(keys.display, processed.variants.display, "image/webp");
  if (await deps.media.recordProcessing(asset.id, { processing: "ready", image: processed.image })) {
    await deps.objects.delete(asset.objectKey);
  }
};
