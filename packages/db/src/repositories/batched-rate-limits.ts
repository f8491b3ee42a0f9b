import type { RateLimiter, RateLimitResult } from "@agora/domain/common/rate-limit";
import type { SqlExecutor } from "../sql";
import { createRateLimiter } from "./rate-limits.repository";

/**
 * A limiter that counts in the process and adds its counts to the PostgreSQL limit store in one
 * statement each `flushIntervalMs`, for limits on reads (public search): a counter row written per
 * request cost the search about a quarter of its instructions (docs/decisions/counting-limits.md).
 * A hit is judged against the store's count as of this process's last flush plus the hits counted
 * since; what that allows across processes (the overshoot's bound) is stated once, in
 * docs/safety.md ("Write limits").
 */
export type BatchedRateLimiter = RateLimiter & {
  /** Adds the counts held in the process to the store now (one statement per window length). */
  flush(): Promise<void>;
  /** Stops the timer and flushes what is held. */
  close(): Promise<void>;
};

export type BatchedRateLimiterOptions = {
  /** How often held counts go to the store (default 1 s: the overshoot's bound). */
  flushIntervalMs?: number;
  /** Keys held at once before a flush starts early (memory bound; default 10,000). */
  maxHeldKeys?: number;
  /** A flush that failed: its counts stay held and go with the next one. */
  onError?: (error: unknown) => void;
};

type Held = { hits: number; windowSeconds: number; lastAt: Date };
type Known = { hits: number; windowStartedAt: Date; windowSeconds: number };
type FlushRow = { key: string; hits: number; window_started_at: Date };

const windowEnds = (known: Known): number => known.windowStartedAt.getTime() + known.windowSeconds * 1000;

/** One statement adds every held count of one window length; rows in key order (no lock cycles). */
const FLUSH_SQL = `INSERT INTO rate_limits (key, window_started_at, hits)
  SELECT key, at, n FROM unnest($1::text[], $2::timestamptz[], $3::int[]) AS held(key, at, n) ORDER BY key
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN rate_limits.window_started_at <= excluded.window_started_at - $4::float8 * interval '1 second'
      THEN excluded.hits ELSE rate_limits.hits + excluded.hits END,
    window_started_at = CASE WHEN rate_limits.window_started_at <= excluded.window_started_at - $4::float8 * interval '1 second'
      THEN excluded.window_started_at ELSE rate_limits.window_started_at END
  RETURNING key, hits, window_started_at`;

export const createBatchedRateLimiter = (
  db: SqlExecutor,
  options: BatchedRateLimiterOptions = {},
): BatchedRateLimiter => {
  const flushIntervalMs = options.flushIntervalMs ?? 1_000;
  const maxHeldKeys = options.maxHeldKeys ?? 10_000;
  const store = createRateLimiter(db);
  let held = new Map<string, Held>();
  // The batch being added to the store: still counted by hits until the store's answer is known.
  let inFlight = new Map<string, Held>();
  // The time of the latest hit (the callers' clock, which tests may move).
  let latestHitAt = 0;
  // The store's count per key at the last flush; pruned when its window ends.
  const known = new Map<string, Known>();
  // When a flush last failed (ms): no early flush within an interval of it, so a database that is
  // down is tried once per interval, not once per search.
  let failedAt = Number.NEGATIVE_INFINITY;

  const knownAt = (key: string, now: Date): Known | undefined => {
    const entry = known.get(key);
    if (entry && windowEnds(entry) <= now.getTime()) {
      known.delete(key);

      return undefined;
    }

    return entry;
  };

  const flushHeld = async (): Promise<void> => {
    if (held.size === 0) {
      return;
    }
    const batch = held;
    held = new Map();
    inFlight = batch;
    const byWindow = new Map<number, Array<[string, Held]>>();
    for (const entry of batch) {
      const group = byWindow.get(entry[1].windowSeconds) ?? [];
      group.push(entry);
      byWindow.set(entry[1].windowSeconds, group);
    }
    for (const [windowSeconds, entries] of byWindow) {
      try {
        const { rows } = await db.query<FlushRow>(
          FLUSH_SQL,
          [
            entries.map(([key]) => key),
            entries.map(([, h]) => h.lastAt),
            entries.map(([, h]) => h.hits),
            windowSeconds,
          ],
          "rate_limits_flush",
        );
        for (const row of rows) {
          known.set(row.key, { hits: row.hits, windowStartedAt: row.window_started_at, windowSeconds });
        }
        for (const [key] of entries) {
          inFlight.delete(key);
        }
      } catch (error) {
        // Not lost: held again, added to what arrived meanwhile.
        for (const [key, h] of entries) {
          inFlight.delete(key);
          const now = held.get(key);
          held.set(key, now ? { ...now, hits: now.hits + h.hits } : h);
        }
        failedAt = Date.now();
        options.onError?.(error);
      }
    }
    inFlight = new Map();
    // Memory: what the store said of keys whose window had ended by the latest hit's time.
    for (const [key, entry] of known) {
      if (windowEnds(entry) <= latestHitAt && !held.has(key)) {
        known.delete(key);
      }
    }
  };

  // One flush at a time, in order; calls while one waits to start share it.
  let chain: Promise<void> = Promise.resolve();
  let waiting: Promise<void> | undefined;
  const flush = (): Promise<void> => {
    if (!waiting) {
      waiting = chain.then(() => {
        waiting = undefined;

        return flushHeld();
      });
      chain = waiting;
    }

    return waiting;
  };

  const timer = setInterval(() => {
    void flush();
  }, flushIntervalMs);
  timer.unref();

  return {
    hit(key, limit, windowSeconds, now): Promise<RateLimitResult> {
      latestHitAt = Math.max(latestHitAt, now.getTime());
      const base = knownAt(key, now);
      const own = held.get(key);
      const hits = (base?.hits ?? 0) + (inFlight.get(key)?.hits ?? 0) + (own?.hits ?? 0) + 1;
      held.set(key, { hits: (own?.hits ?? 0) + 1, windowSeconds, lastAt: now });
      if (held.size >= maxHeldKeys && Date.now() - failedAt >= flushIntervalMs) {
        void flush();
      }
      const endsAt = base ? windowEnds(base) : now.getTime() + windowSeconds * 1000;

      return Promise.resolve({
        allowed: hits <= limit,
        hits,
        retryAfterSeconds: Math.max(0, (endsAt - now.getTime()) / 1000),
      });
    },
    async peek(keys, windowSeconds, now) {
      await flush();

      return store.peek(keys, windowSeconds, now);
    },
    async reset(key) {
      await flush();
      known.delete(key);
      await store.reset(key);
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
};
