import { setTimeout as sleep } from "node:timers/promises";

/** What a purge removed, per kind of row. */
export type PurgeCounts = Record<string, number>;

/**
 * Removes rows whose job is done: delivered outbox events past their retention, expired
 * idempotency keys, finished rate-limit windows, spent or expired emailed codes. Dead-lettered
 * events are kept (they wait for `outbox retry`). Each call removes a bounded batch per kind.
 */
export interface Housekeeper {
  purge(now: Date): Promise<PurgeCounts>;
}

/** How long delivered outbox events stay, for inspection. */
export const OUTBOX_RETENTION_MS = 7 * 24 * 3600_000;

/**
 * Runs a purge every `intervalMs` until `signal` aborts; reports each result (or failure). A failed
 * purge (the database is down) is tried again after `retryMs` (1 minute), not a whole interval.
 */
export const runHousekeeping = async (
  deps: { housekeeper: Housekeeper; clock: { now(): Date } },
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
      options.report?.(await deps.housekeeper.purge(deps.clock.now()));
    } catch (error) {
      failed = true;
      options.report?.(error instanceof Error ? error : new Error(String(error)));
    }
    // Rejects at once when the signal aborted meanwhile (during the purge, say): the loop ends.
    await sleep(failed ? retryMs : intervalMs, undefined, { signal: options.signal }).catch(() => undefined);
  }
};
