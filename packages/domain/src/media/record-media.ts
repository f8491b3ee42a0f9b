import type { Actor } from "../shared/actor";
import { type AssetField, attachMedia, prepareAttachment } from "./attach-media";
import type { ConfirmDeps } from "./confirm-upload";
import { UnusableMediaError } from "./media.errors";
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

/**
 * Inside the transaction, with the record's media read under its lock (`held`): the kept assets
 * must still be the record's (a concurrent change may have dropped one: 422, send again), and the
 * fresh ones are attached (public: the record's visibility decides who reads them).
 */
export const attachRecordMedia = async (
  tx: MediaRepositories,
  actor: Actor,
  input: { fresh: readonly string[]; ids: readonly string[]; held: readonly string[] },
  options: { purpose: MediaPurpose; at: Date; field: AssetField },
): Promise<void> => {
  const { fresh, ids, held } = input;
  const gone = ids.findIndex((id) => !fresh.includes(id) && !held.includes(id));
  if (gone >= 0) {
    throw new UnusableMediaError(
      options.field(gone),
      "it was removed from this record meanwhile; send again",
    );
  }
  await attachMedia(tx, actor, fresh, options.purpose, {
    at: options.at,
    public: true,
    field: (index) => options.field(ids.indexOf(fresh[index] ?? "")),
  });
};
