import type {
  MediaAsset,
  MediaMimeType,
  MediaPurpose,
  MediaVariantName,
  ProcessedImage,
} from "./media.types";
import type { PendingUpload } from "./upload-quota";

/** What the object store holds under a key. */
export type StoredObject = { sizeBytes: number; contentType: string | undefined };

/**
 * The object store (S3-compatible). Presigning is local; `head` and `delete` call the store with a
 * bounded wait. Every method rejects with StorageUnavailableError when the store is not configured
 * or does not answer. Never called inside a database transaction.
 */
export interface ObjectStore {
  /** A PUT URL whose signature covers exactly this content type and length. */
  presignUpload(
    key: string,
    object: { contentType: string; contentLength: number },
    signing: { at: Date; expiresInSeconds: number },
  ): Promise<string>;
  /** A GET URL for the object. */
  presignRead(key: string, signing: { at: Date; expiresInSeconds: number }): Promise<string>;
  /** The stored object's size and type; null when there is none under `key`. */
  head(key: string): Promise<StoredObject | null>;
  /** Deletes the object; deleting a missing one succeeds. */
  delete(key: string): Promise<void>;
  /** The object's bytes; null when there is none under `key` or it is larger than `maxBytes`. */
  get(key: string, maxBytes: number): Promise<Uint8Array | null>;
  /** Stores `bytes` under `key` (replacing what was there). */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /**
   * Copies the object under `from` to `to` inside the store (S3 CopyObject: the bytes do not pass
   * through the server), content type included, replacing what was under `to`; false when there is
   * nothing under `from`.
   */
  copy(from: string, to: string): Promise<boolean>;
}

/** What the processor made of an upload's bytes. */
export type ProcessedMedia =
  | { kind: "rejected"; reason: string }
  /** A video whose magic numbers say `video/mp4`: nothing is re-encoded. */
  | { kind: "video" }
  | {
      kind: "image";
      image: ProcessedImage;
      /** The image re-encoded in its declared type: orientation applied, every metadata block dropped. */
      full: Uint8Array;
      /** The WebP variants, also without metadata. */
      variants: Record<MediaVariantName, Uint8Array>;
    };

/**
 * Checks the bytes' type by their magic numbers against the declared one, and re-encodes an image
 * without its metadata (EXIF with GPS, XMP, IPTC), orientation applied, with a blurhash and WebP
 * variants. Bounded: the pixel count is limited (a larger image is rejected) and at most a
 * configured number of images is processed at a time per process.
 */
export interface MediaProcessor {
  process(bytes: Uint8Array, declared: MediaMimeType): Promise<ProcessedMedia>;
}

/**
 * The realtime channels of the records that hold an asset. `processed` tells them that its
 * processing ended (ready or rejected), after that was committed: today the chat messages holding
 * it, whose conversations' open sockets are sent the message again (docs/media.md, "Messages").
 */
export interface MediaSignals {
  processed(assetId: string): Promise<void>;
}

/** Where an asset is attached, as far as reading it is concerned, for one viewer. */
export type MediaAttachments = {
  /**
   * Attached to a moment this viewer may see: not hidden (unless the viewer wrote it), and no block
   * either way between the viewer and its author.
   */
  onVisibleMoment: boolean;
  /** In the gallery of a listing the public sees (active, subscribed, provider approved and active). */
  onVisibleListing: boolean;
  /** The image of an active menu item on a listing the public sees. */
  onVisibleMenuItem: boolean;
  /** The logo of an approved provider whose owner's account is active. */
  onVisibleProvider: boolean;
  /** A photo of a visible dating profile of an active account, no block either way with the viewer. */
  onVisibleDatingProfile: boolean;
  /** The avatar of an active account, no block either way with the viewer. */
  onVisibleAvatar: boolean;
  /** Attached as a payment's evidence: who reviews it besides administrators (the order's provider owner). */
  paymentEvidence: { reviewerIds: string[] } | null;
  /** Sent in a chat message: the two participants of its conversation (empty otherwise). */
  messageParticipantIds: string[];
};

/**
 * The records that hold their media in a link table (record id, position, asset), in order:
 * a listing's gallery, a menu item's image, a provider's logo, a dating profile's photos (keyed by
 * its user id) and a user's avatar.
 */
export type MediaRecordKind = "listing" | "menu_item" | "provider" | "dating_profile" | "user";

export interface MediaAssetRepository {
  create(asset: MediaAsset): Promise<void>;
  /**
   * In the caller's transaction: locks the owner's account row (`FOR NO KEY UPDATE`), so the upload
   * requests of one account run one after the other, then returns its pending uploads requested
   * after `since` (not attached, not expired; see upload-quota.ts).
   */
  lockPendingUploads(ownerId: string, since: Date): Promise<PendingUpload[]>;
  findById(id: string): Promise<MediaAsset | null>;
  /** The assets among `ids` that exist (any order). */
  findByIds(ids: readonly string[]): Promise<MediaAsset[]>;
  /** Where the asset is attached, for `viewerId` at `at` (see MediaAttachments). */
  findAttachments(id: string, viewerId: string, at: Date): Promise<MediaAttachments>;
  /**
   * A record's media, in order. `lock` (in a transaction) first locks the record's row, so media
   * changes to one record run one after the other.
   */
  findOnRecord(kind: MediaRecordKind, recordId: string, options?: { lock?: boolean }): Promise<MediaAsset[]>;
  /**
   * The media of many records of one kind in one statement, by record id, each in order (records
   * without media are absent). `first` reads only each record's first image that processing did
   * not reject (a cover).
   */
  findOnRecords(
    kind: MediaRecordKind,
    recordIds: readonly string[],
    options?: { first?: boolean },
  ): Promise<Map<string, MediaAsset[]>>;
  /**
   * Makes `ids` the record's media, in this order (in the caller's transaction; the assets are
   * attached by `attach` first). Assets that leave it are detached and made private again: no
   * record holds them any more, so the orphan purge deletes them.
   */
  setRecordMedia(kind: MediaRecordKind, recordId: string, ids: readonly string[]): Promise<void>;
  /**
   * pending → uploaded, with processing queued; false (a no-op) for an asset in another state, so
   * of two confirmations racing only one queues the processing.
   */
  markUploaded(id: string, at: Date): Promise<boolean>;
  /**
   * processing → ready or rejected; answers the asset as it is then (whether a record holds it:
   * `attachedAt`, as committed by an attach it waited for), or null, a no-op, when it is not
   * processing any more.
   */
  recordProcessing(
    id: string,
    outcome:
      | { processing: "ready"; image: ProcessedImage | null }
      | { processing: "rejected"; reason: string },
  ): Promise<MediaAsset | null>;
  /**
   * Attaches the assets to a record, in the caller's transaction: each must be the owner's, of
   * `purpose`, uploaded, not rejected (processing or ready) and not attached yet; the rows are
   * locked, so of two records racing for an asset one gets it, the orphan sweep cannot expire it
   * meanwhile, and a rejection committed first keeps it off the record. `public` makes them public.
   * Returns the ids it attached (fewer than asked means the caller must roll back).
   */
  attach(
    ids: readonly string[],
    owner: { ownerId: string; purpose: MediaPurpose },
    options: { at: Date; public: boolean },
  ): Promise<string[]>;
  /**
   * Deletes the rows of the owner's assets, except payment evidence (payments keep it), and
   * returns their ids and upload keys: the caller deletes every object of each (allObjectKeys;
   * through the outbox, after commit). Run it after the records holding them (moments) are gone.
   */
  deletePublishedBy(ownerId: string): Promise<Array<{ id: string; objectKey: string }>>;
}

export type MediaRepositories = { media: MediaAssetRepository };
