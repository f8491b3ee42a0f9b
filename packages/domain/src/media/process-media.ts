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
 *   their own keys (`media/<id>…`), then it becomes `ready` with its size and blurhash, and its
 *   uploaded object, metadata and all, is deleted;
 * - a video (`video/mp4`, checked by type and size only) is first copied inside the store to its
 *   served key `media/<id>`, and the copy is what gets checked (so bytes PUT again to the upload URL
 *   meanwhile are never served); it becomes `ready` and its upload is deleted.
 * Nothing served stays under `uploads/`. A store that does not answer throws: the outbox retries.
 */
export const processMedia = async ({ mediaProcessing: deps }: MediaProcessingDeps, assetId: string) => {
  const asset = await deps.media.findById(assetId);
  if (asset?.status !== "uploaded" || asset.processing !== "processing") {
    return;
  }
  const keys = servedKeys(asset.id);
  // A video is served as sent, from a copy only the server writes; an asset of the old layout was
  // uploaded to that very key.
  const copied = asset.mimeType === "video/mp4" && asset.objectKey !== keys.video;
  const source = asset.mimeType === "video/mp4" ? keys.video : asset.objectKey;
  // The upload's signature covers its length: anything larger is not the upload.
  const bytes =
    copied && !(await deps.objects.copy(asset.objectKey, keys.video))
      ? null
      : await deps.objects.get(source, asset.sizeBytes);
  if (!bytes) {
    await reject(
      deps,
      asset.id,
      "its uploaded object is gone or not the declared size",
      copied && keys.video,
    );

    return;
  }
  const processed = await deps.processor.process(bytes, asset.mimeType);
  if (processed.kind === "rejected") {
    await reject(deps, asset.id, processed.reason, copied && keys.video);

    return;
  }
  if (processed.kind === "video") {
    if (
      (await deps.media.recordProcessing(asset.id, { processing: "ready", image: null })) &&
      asset.objectKey !== keys.video
    ) {
      await deps.objects.delete(asset.objectKey);
    }

    return;
  }
  await deps.objects.put(keys.full, processed.full, asset.mimeType);
  await deps.objects.put(keys.thumb, processed.variants.thumb, "image/webp");
  await deps.objects.put(keys.display, processed.variants.display, "image/webp");
  if (await deps.media.recordProcessing(asset.id, { processing: "ready", image: processed.image })) {
    await deps.objects.delete(asset.objectKey);
  }
};

/** Records the rejection; a video's served copy made for the check goes (nothing rejected is served). */
const reject = async (
  deps: MediaProcessingDeps["mediaProcessing"],
  id: string,
  reason: string,
  copy: string | false,
) => {
  if ((await deps.media.recordProcessing(id, { processing: "rejected", reason })) && copy) {
    await deps.objects.delete(copy);
  }
};
