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

/** Runs a purge every `intervalMs` until `signal` aborts; reports each result (or failure). */
export const runHousekeeping = async (
  deps: { housekeeper: Housekeeper; clock: { now(): Date } },
  options: { signal: AbortSignal; intervalMs?: number; report?: (result: PurgeCounts | Error) => void },
): Promise<void> => {
  const intervalMs = options.intervalMs ?? 10 * 60_000;
  while (!options.signal.aborted) {
    try {
      options.report?.(await deps.housekeeper.purge(deps.clock.now()));
    } catch (error) {
      options.report?.(error instanceof Error ? error : new Error(String(error)));
    }
    await sleep(intervalMs, undefined, { signal: options.signal }).catch(() => undefined);
  }
};
