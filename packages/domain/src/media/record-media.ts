import type { Actor } from "../common/actor";
import { type AssetField, attachMedia, prepareAttachment } from "./attach-media";
import type { ConfirmDeps } from "./confirm-upload";
import { UnusableMediaError } from "./media.errors";
import type { MediaRecordKind, MediaRepositories, ObjectStore } from "./media.ports";
import type { MediaAsset, MediaPurpose } from "./media.types";
import { type MediaUrls, mediaUrls } from "./media-urls";

/**
 * A record's image as its reads show it: the asset (its processing state, what processing recorded)
 * and its URLs, null until it is ready (see mediaUrls).
 */
export type RecordMedia = { asset: MediaAsset; urls: MediaUrls | null };

/**
 * Whether `viewerId` sees the asset on the record holding it: an asset rejected after a record took
 * it leaves every read but its owner's (null: a read of no one in particular, such as the public
 * listing page or search); processing and ready assets are shown to every reader of the record.
 */
export const showsOnRecord = (asset: MediaAsset, viewerId: string | null): boolean =>
  asset.processing !== "rejected" || asset.ownerId === viewerId;

/**
 * A record's media as `viewerId` reads them, in order: those it sees (showsOnRecord), each with its
 * read URLs once ready (docs/media.md, "Records that carry media").
 */
export const recordMedia = async (
  objects: ObjectStore,
  assets: readonly MediaAsset[],
  now: Date,
  viewerId: string | null,
): Promise<RecordMedia[]> =>
  Promise.all(
    assets
      .filter((asset) => showsOnRecord(asset, viewerId))
      .map(async (asset) => ({ asset, urls: await mediaUrls(objects, asset, now) })),
  );

/**
 * Before the transaction that sets a record's media to `ids`: the assets it does not hold yet must
 * be the caller's own, of `purpose`, confirmed and not rejected (see prepareAttachment); those it
 * holds already are kept as they are. Resolves the ids to attach in the transaction.
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

/** Names the request field of the image at `index` (every record's body calls it `media_asset_ids`). */
export const mediaField: AssetField = (index) => `media_asset_ids.${index}`;

/** A record's new media, checked before its transaction (see prepareMediaChange). */
export type MediaChange = { ids: readonly string[]; fresh: string[] };

/**
 * Before the transaction that changes a record (`recordId`, null for a new one): when `ids` is
 * given, the assets the record does not hold yet are checked as prepareRecordMedia says. Undefined
 * `ids` leaves the media as they are (undefined answer).
 */
export const prepareMediaChange = async (
  deps: ConfirmDeps,
  actor: Actor,
  record: { kind: MediaRecordKind; id: string | null; purpose: MediaPurpose },
  ids: readonly string[] | undefined,
): Promise<MediaChange | undefined> => {
  if (ids === undefined) {
    return undefined;
  }
  const held = record.id
    ? (await deps.repos.media.findOnRecord(record.kind, record.id)).map((a) => a.id)
    : [];

  return {
    ids,
    fresh: await prepareRecordMedia(deps, actor, { ids, held, purpose: record.purpose, field: mediaField }),
  };
};

/**
 * Inside the record's transaction, after the record row exists: locks the record's row, checks the
 * kept images are still the record's, attaches the fresh ones and makes `ids` the record's media
 * (the images dropped are detached and left to the orphan purge). Answers the media, in order.
 */
export const applyMediaChange = async (
  tx: MediaRepositories,
  actor: Actor,
  record: { kind: MediaRecordKind; id: string; purpose: MediaPurpose },
  change: MediaChange | undefined,
  at: Date,
): Promise<MediaAsset[]> => {
  if (change) {
    const held = (await tx.media.findOnRecord(record.kind, record.id, { lock: true })).map((a) => a.id);
    await attachRecordMedia(
      tx,
      actor,
      { fresh: change.fresh, ids: change.ids, held },
      { purpose: record.purpose, at, field: mediaField },
    );
    await tx.media.setRecordMedia(record.kind, record.id, change.ids);
  }

  return tx.media.findOnRecord(record.kind, record.id);
};
