import type { Actor } from "../common/actor";
import { type ConfirmDeps, confirmUpload } from "./confirm-upload";
import { UnusableMediaError } from "./media.errors";
import type { MediaRepositories } from "./media.ports";
import type { MediaAsset, MediaPurpose } from "./media.types";

/** Names the request field of the asset at `index` in error details (`media_asset_ids.2`). */
export type AssetField = (index: number) => string;

/**
 * A confirmed asset is usable whether or not its processing has ended: a record takes it at once,
 * and its reads show it `processing`, without URLs, until it is ready. Only bytes already rejected
 * are refused (422).
 */
const ensureNotRejected = (asset: MediaAsset, path: string): void => {
  if (asset.processing === "rejected") {
    throw new UnusableMediaError(path, asset.rejectedReason ?? "its bytes are not what was declared");
  }
};

/**
 * Before the transaction that attaches them: the assets must be the caller's own, of `purpose`,
 * not attached yet, and their uploads confirmed by the store (HEAD, outside any transaction), 422
 * otherwise (503 when the store does not answer). Confirming one queues its processing; a record
 * never waits for it (docs/media.md, "Life of an asset"), but bytes already rejected are 422.
 */
export const prepareAttachment = async (
  deps: ConfirmDeps,
  actor: Actor,
  ids: readonly string[],
  purpose: MediaPurpose,
  at: AssetField,
): Promise<void> => {
  if (ids.length === 0) {
    return;
  }
  const duplicate = ids.findIndex((id, index) => ids.indexOf(id) !== index);
  if (duplicate >= 0) {
    throw new UnusableMediaError(at(duplicate), "it is listed twice");
  }
  const found = new Map((await deps.repos.media.findByIds(ids)).map((asset) => [asset.id, asset]));
  const assets = ids.map((id, index) => {
    const asset = found.get(id);
    if (!asset || asset.ownerId !== actor.userId) {
      throw new UnusableMediaError(at(index), "it is not a media asset of yours");
    }
    if (asset.purpose !== purpose) {
      throw new UnusableMediaError(at(index), `it was uploaded for ${asset.purpose}, not ${purpose}`);
    }
    if (asset.attachedAt) {
      throw new UnusableMediaError(at(index), "it is already attached to another record");
    }

    return asset;
  });
  const confirmed = await Promise.all(assets.map((asset, index) => confirmUpload(deps, asset, at(index))));
  confirmed.forEach((asset, index) => {
    ensureNotRejected(asset, at(index));
  });
};

/**
 * Inside the attaching transaction: takes the prepared assets (locked, so a concurrent record or
 * the orphan sweep cannot take them too); 422 when one was taken meanwhile, and the caller's
 * transaction rolls back.
 */
export const attachMedia = async (
  tx: MediaRepositories,
  actor: Actor,
  ids: readonly string[],
  purpose: MediaPurpose,
  options: { at: Date; public: boolean; field: AssetField },
): Promise<void> => {
  if (ids.length === 0) {
    return;
  }
  const attached = await tx.media.attach(
    ids,
    { ownerId: actor.userId, purpose },
    { at: options.at, public: options.public },
  );
  const missing = ids.findIndex((id) => !attached.includes(id));
  if (missing >= 0) {
    throw new UnusableMediaError(options.field(missing), "it was attached elsewhere or expired meanwhile");
  }
};
