import type { MediaAsset, MediaPurpose } from "./media.types";

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
}

/** Where an asset is attached, as far as reading it is concerned, for one viewer. */
export type MediaAttachments = {
  /**
   * Attached to a moment this viewer may see: not hidden (unless the viewer wrote it), and no block
   * either way between the viewer and its author.
   */
  onVisibleMoment: boolean;
  /** Attached as a payment's evidence: who reviews it besides administrators (the order's provider owner). */
  paymentEvidence: { reviewerIds: string[] } | null;
};

export interface MediaAssetRepository {
  create(asset: MediaAsset): Promise<void>;
  findById(id: string): Promise<MediaAsset | null>;
  /** The assets among `ids` that exist (any order). */
  findByIds(ids: readonly string[]): Promise<MediaAsset[]>;
  /** Where the asset is attached, for `viewerId` (see MediaAttachments). */
  findAttachments(id: string, viewerId: string): Promise<MediaAttachments>;
  /** pending → uploaded; a no-op for an asset in another state. */
  markUploaded(id: string, at: Date): Promise<void>;
  /**
   * Attaches the assets to a record, in the caller's transaction: each must be the owner's, of
   * `purpose`, uploaded and not attached yet; the rows are locked, so of two records racing for an
   * asset one gets it, and the orphan sweep cannot expire it meanwhile. `public` makes them public.
   * Returns the ids it attached (fewer than asked means the caller must roll back).
   */
  attach(
    ids: readonly string[],
    owner: { ownerId: string; purpose: MediaPurpose },
    options: { at: Date; public: boolean },
  ): Promise<string[]>;
  /**
   * Deletes the rows of the owner's assets, except payment evidence (payments keep it), and
   * returns their object keys: the caller deletes the objects (through the outbox, after commit).
   * Run it after the records holding them (moments) are gone.
   */
  deletePublishedBy(ownerId: string): Promise<string[]>;
}

export type MediaRepositories = { media: MediaAssetRepository };
