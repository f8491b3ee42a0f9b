import { type NotifyDeps, notify } from "../notifications/notify";
import type { MediaAssetRepository, MediaProcessor, MediaSignals, ObjectStore } from "./media.ports";
import { type MediaAsset, servedKeys } from "./media.types";

/** The notice an owner gets when bytes a record already took are rejected (once per asset). */
export const MEDIA_REJECTED_NOTICE = "media.rejected";

/**
 * What the worker needs to process uploads: the assets, the store, the image processor, the
 * realtime channels of the records holding an asset, and the inbox (the owner's notice).
 */
export type MediaProcessingDeps = NotifyDeps & {
  mediaProcessing: {
    media: Pick<MediaAssetRepository, "findById" | "recordProcessing">;
    objects: ObjectStore;
    processor: MediaProcessor;
    signals: MediaSignals;
  };
};

/**
 * Delivers `media.uploaded` (event `event`): processes the asset (processUpload), then, when a
 * record had already taken it, tells the records' open realtime channels that its processing ended
 * (an open chat shows the photo without reloading) and, when its bytes were rejected, gives its
 * owner one notice saying why. A redelivery after the processing was recorded tells them again:
 * a channel is sent the message again (clients replace it by id), and the notice's id is derived
 * from the event, so it is written and pushed once.
 */
export const processMedia = async (
  deps: MediaProcessingDeps,
  event: { id: string; createdAt: Date },
  assetId: string,
): Promise<void> => {
  const found = await deps.mediaProcessing.media.findById(assetId);
  if (found?.status !== "uploaded" || found.processing === null) {
    return;
  }
  const done = found.processing === "processing" ? await processUpload(deps.mediaProcessing, found) : found;
  // Null: another delivery recorded it meanwhile, and tells what there is to tell.
  if (!done?.attachedAt || done.processing === "processing") {
    return;
  }
  await deps.mediaProcessing.signals.processed(done.id);
  if (done.processing === "rejected") {
    await notify(deps, event, [
      {
        userId: done.ownerId,
        kind: MEDIA_REJECTED_NOTICE,
        title: "A picture could not be published",
        body: `It was not shown to anyone: ${done.rejectedReason ?? "its bytes are not what was declared"}. Remove it and upload another.`,
        data: { media_asset_id: done.id, purpose: done.purpose },
      },
    ]);
  }
};

/**
 * Processes a confirmed upload, once (a redelivery finds it no longer `processing`):
 * - bytes whose magic numbers disagree with the declared type, or an unreadable or too large image,
 *   make it `rejected` (it can never be attached; the owner sees why);
 * - an image's metadata-free copy (orientation applied) and its WebP variants are stored under
 *   their own keys (`media/<id>…`), then it becomes `ready` with its size and blurhash, and its
 *   uploaded object, metadata and all, is deleted;
 * - a video (`video/mp4`, checked by type and size only) is first copied inside the store to its
 *   served key `media/<id>`, and the copy is what gets checked (so bytes PUT again to the upload URL
 *   meanwhile are never served); it becomes `ready` and its upload is deleted.
 * Nothing served stays under `uploads/`. A store that does not answer throws: the outbox retries.
 * Answers the asset as recorded (null when another delivery recorded it first).
 */
const processUpload = async (
  deps: MediaProcessingDeps["mediaProcessing"],
  asset: MediaAsset,
): Promise<MediaAsset | null> => {
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
    return reject(
      deps,
      asset.id,
      "its uploaded object is gone or not the declared size",
      copied && keys.video,
    );
  }
  const processed = await deps.processor.process(bytes, asset.mimeType);
  if (processed.kind === "rejected") {
    return reject(deps, asset.id, processed.reason, copied && keys.video);
  }
  if (processed.kind === "video") {
    const ready = await deps.media.recordProcessing(asset.id, { processing: "ready", image: null });
    if (ready && asset.objectKey !== keys.video) {
      await deps.objects.delete(asset.objectKey);
    }

    return ready;
  }
  await deps.objects.put(keys.full, processed.full, asset.mimeType);
  await deps.objects.put(keys.thumb, processed.variants.thumb, "image/webp");
  await deps.objects.put(keys.display, processed.variants.display, "image/webp");
  const ready = await deps.media.recordProcessing(asset.id, { processing: "ready", image: processed.image });
  if (ready) {
    await deps.objects.delete(asset.objectKey);
  }

  return ready;
};

/** Records the rejection; a video's served copy made for the check goes (nothing rejected is served). */
const reject = async (
  deps: MediaProcessingDeps["mediaProcessing"],
  id: string,
  reason: string,
  copy: string | false,
): Promise<MediaAsset | null> => {
  const rejected = await deps.media.recordProcessing(id, { processing: "rejected", reason });
  if (rejected && copy) {
    await deps.objects.delete(copy);
  }

  return rejected;
};
