import type { Actor } from "../shared/actor";
import { type AssetField, attachMedia, prepareAttachment } from "./attach-media";
import type { ConfirmDeps } from "./confirm-upload";
import type { MediaRepositories, ObjectStore } from "./media.ports";
import type { MediaAsset, MediaPurpose } from "./media.types";
import { type MediaUrls, mediaUrls } from "./media-urls";

/** A record's image as its reads show it: its URLs (see mediaUrls) with what processing recorded. */
export type RecordMedia = { asset: MediaAsset; urls: MediaUrls };

/** The read URLs of a record's assets, in order. */
export const recordMedia = async (
  objects: ObjectStore,
  assets: readonly MediaAsset[],
  now: Date,
): Promise<RecordMedia[]> =>
  Promise.all(assets.map(async (asset) => ({ asset, urls: await mediaUrls(objects, asset, now) })));

/**
 * Before the transaction that sets a record's media to `ids`: the assets it does not hold yet must
 * be the caller's own, of `purpose`, confirmed and processed (see prepareAttachment); those it holds
 * already are kept as they are. Resolves the ids to attach in the transaction.
 */
export const prepareRecordMedia = async (
  deps: ConfirmDeps,
  actor: Actor,
  input: { ids: readonly string[]; held: readonly string[]; purpose: MediaPurpose; field: AssetField },
): Promise<string[]> => {
  const fresh = input.ids.filter((id) => !input.held.includes(id));
  const duplicate = input.ids.findIndex((id, index) => input.ids.indexOf(id) !== index);
  // Fields name the position in the request, not in the fresh subset.
  const at = (index: number) => input.field(input.ids.indexOf(fresh[index] ?? ""));
  if (duplicate >= 0) {
    await prepareAttachment(deps, actor, input.ids, input.purpose, input.field);
  }
  await prepareAttachment(deps, actor, fresh, input.purpose, at);

  return fresh;
};

/** Inside the transaction: attaches the fresh assets (public: the record's visibility decides). */
export const attachRecordMedia = (
  tx: MediaRepositories,
  actor: Actor,
  fresh: readonly string[],
  ids: readonly string[],
  options: { purpose: MediaPurpose; at: Date; field: AssetField },
): Promise<void> =>
  attachMedia(tx, actor, fresh, options.purpose, {
    at: options.at,
    public: true,
    field: (index) => options.field(ids.indexOf(fresh[index] ?? "")),
  });
