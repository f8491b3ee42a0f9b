import { setTimeout as sleep } from "node:timers/promises";
import { allObjectKeys } from "../media/media.types";

/** What a purge removed, per kind of row. */
export type PurgeCounts = Record<string, number>;

/** A media asset whose object is to be deleted. */
export type ExpiredMedia = { id: string; objectKey: string };

/**
 * Removes rows whose job is done: delivered outbox events past their retention, expired
 * idempotency keys, finished rate-limit windows, spent or expired emailed codes. Dead-lettered
 * events are kept (they wait for `outbox retry`). Each call removes a bounded batch per kind.
 * Media assets never attached in time are removed in batches of steps until none is left (see
 * purgeOrphanMedia), because their objects live in the object store and are deleted between two
 * statements, outside any transaction.
 */
export interface Housekeeper {
  purge(now: Date): Promise<PurgeCounts>;
  /**
   * Marks at most `limit` assets created before `cutoff` and never attached as expired (no record
   * can take them any more), and returns at most `limit` expired assets, oldest first: these and
   * earlier ones whose object deletion failed. Each statement is short and commits on its own.
   */
  expireOrphanMedia(cutoff: Date, limit: number): Promise<ExpiredMedia[]>;
  /** Deletes the rows of expired assets (attached ones are never deleted). */
  deleteExpiredMedia(ids: readonly string[]): Promise<number>;
}

/** How long delivered outbox events stay, for inspection. */
export const OUTBOX_RETENTION_MS = 7 * 24 * 3600_000;

/** A media asset that no record took within this long is deleted, object and row. */
export const ORPHAN_MEDIA_AFTER_MS = 24 * 3600_000;

/** Object deletions running at once. */
const DELETE_CONCURRENCY = 8;

/** Orphan media handled per batch: each costs an object-store call or four. */
export const ORPHAN_MEDIA_BATCH = 500;

/**
 * Orphan media, in batches until none is left: each batch expires up to `batchSize` assets in the
 * database (one short statement), deletes their objects outside any transaction, then deletes the
 * rows whose objects are gone (another). The purge goes on while batches come back full, and stops
 * at the first short batch, at a batch where no object could be deleted (the store is failing:
 * the next purge tries again), or when `signal` aborts. An object whose deletion failed keeps its
 * (expired) row, and is tried again by the next batch or purge.
 */
export const purgeOrphanMedia = async (
  deps: { housekeeper: Housekeeper; objects: { delete(key: string): Promise<void> } },
  now: Date,
  options: { batchSize?: number; signal?: AbortSignal } = {},
): Promise<PurgeCounts> => {
  const batchSize = options.batchSize ?? ORPHAN_MEDIA_BATCH;
  const cutoff = new Date(now.getTime() - ORPHAN_MEDIA_AFTER_MS);
  const failed = new Set<string>();
  let deleted = 0;
  let batches = 0;
  while (!options.signal?.aborted) {
    const expired = await deps.housekeeper.expireOrphanMedia(cutoff, batchSize);
    batches += 1;
    const gone = await deleteObjects(deps.objects, expired);
    for (const asset of expired) {
      if (gone.includes(asset.id)) {
        failed.delete(asset.id);
      } else {
        failed.add(asset.id);
      }
    }
    deleted += gone.length > 0 ? await deps.housekeeper.deleteExpiredMedia(gone) : 0;
    if (expired.length < batchSize || gone.length === 0) {
      break;
    }
  }

  return { media_assets: deleted, media_objects_failed: failed.size, media_batches: batches };
};

/** Deletes every object of each asset (the upload, and its served copies: allObjectKeys); the ids done. */
const deleteObjects = async (
  objects: { delete(key: string): Promise<void> },
  expired: readonly ExpiredMedia[],
): Promise<string[]> => {
  const gone: string[] = [];
  for (let start = 0; start < expired.length; start += DELETE_CONCURRENCY) {
    const chunk = expired.slice(start, start + DELETE_CONCURRENCY);
    const results = await Promise.allSettled(
      chunk.map((asset) => Promise.all(allObjectKeys(asset).map((key) => objects.delete(key)))),
    );
    results.forEach((result, index) => {
      const asset = chunk[index];
      if (result.status === "fulfilled" && asset) {
        gone.push(asset.id);
      }
    });
  }

  return gone;
};

/**
 * Runs a purge every `intervalMs` until `signal` aborts; reports each result (or failure). A failed
 * purge (the database is down) is tried again after `retryMs` (1 minute), not a whole interval.
 */
export const runHousekeeping = async (
  deps: {
    housekeeper: Housekeeper;
    objects: { delete(key: string): Promise<void> };
    clock: { now(): Date };
  },
  options: {
    signal: AbortSignal;
    intervalMs?: number;
    retryMs?: number;
    report?: (result: PurgeCounts | Error) => void;
  },
): Promise<void> => {
  const intervalMs = options.intervalMs ?? 10 * 60_000;
  const retryMs = Math.min(intervalMs, options.retryMs ?? 60_000);
  while (!options.signal.aborted) {
    let failed = false;
    try {
      const now = deps.clock.now();
      const counts = await deps.housekeeper.purge(now);
      options.report?.({ ...counts, ...(await purgeOrphanMedia(deps, now, { signal: options.signal })) });
    } catch (error) {
      failed = true;
      options.report?.(error instanceof Error ? error : new Error(String(error)));
    }
    // Rejects at once when the signal aborted meanwhile (during the purge, say): the loop ends.
    await sleep(failed ? retryMs : intervalMs, undefined, { signal: options.signal }).catch(() => undefined);
  }
};
