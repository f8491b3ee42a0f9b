import type { UnitOfWork } from "../common/unit-of-work";
import type { OutboxWriter } from "../outbox/outbox.ports";
import { mediaUploaded } from "./events/media-uploaded";
import { UnusableMediaError } from "./media.errors";
import type { MediaRepositories, ObjectStore } from "./media.ports";
import type { MediaAsset } from "./media.types";

/** What confirming an upload needs: the store's HEAD, and a transaction that queues the processing. */
export type ConfirmDeps = {
  repos: MediaRepositories;
  objects: ObjectStore;
  clock: { now(): Date };
  uow: UnitOfWork<MediaRepositories & { outbox: OutboxWriter }>;
};

/**
 * "A valid asset record does not prove the bytes were uploaded": a pending asset is checked
 * against the store (outside any transaction) and becomes `uploaded` when an object with the
 * declared size and type is there; otherwise 422 (at `path`). Becoming `uploaded` queues its
 * processing (the `media.uploaded` outbox event, in the same transaction): until the worker has
 * checked the bytes, the asset is `processing`. An uploaded asset is taken as it is.
 */
export const confirmUpload = async (
  deps: ConfirmDeps,
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
  const confirmed = await deps.uow.run(async (tx) => {
    if (!(await tx.media.markUploaded(asset.id, now))) {
      return false;
    }
    await tx.outbox.append(mediaUploaded.event(asset.id, { media_asset_id: asset.id }), now);

    return true;
  });
  if (!confirmed) {
    // Another request confirmed it meanwhile (or the purge expired it): read what it is now.
    const current = await deps.repos.media.findById(asset.id);
    if (!current || current.status === "expired") {
      throw new UnusableMediaError(path, "it was not attached within 24 hours and has been deleted");
    }

    return current;
  }

  return { ...asset, status: "uploaded", uploadedAt: now, processing: "processing" };
};
