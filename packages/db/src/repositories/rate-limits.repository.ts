import type { RateLimiter, RateLimitResult } from "@agora/domain/common/rate-limit";
import type { SqlExecutor } from "../sql";

const secondsLeft = (windowStartedAt: Date, windowSeconds: number, now: Date): number =>
  Math.max(0, (windowStartedAt.getTime() + windowSeconds * 1000 - now.getTime()) / 1000);

/** The row a hit answers (RETURNING of rateLimitHitSql). */
export type RateLimitHitRow = { hits: number; window_started_at: Date };

/**
 * One hit, as SQL: counts an event against the key `$<key>` in the window containing `$<now>`
 * (a window that opened at or before `$<openedBefore>`, `now` − the window, restarts at 1), and
 * answers `hits, window_started_at`. The row is inserted from `source` (a FROM clause with its
 * WHERE, e.g. a CTE the hit depends on), or from a bare VALUES without one. Parameters are named by
 * their position so the statement embedding it can place them.
 */
export const rateLimitHitSql = (
  params: { key: string; now: string; openedBefore: string },
  source?: string,
): string => {
  const { key, now, openedBefore } = params;

  return `INSERT INTO rate_limits (key, window_started_at, hits)
       ${source === undefined ? `VALUES (${key}, ${now}, 1)` : `SELECT ${key}, ${now}, 1 FROM ${source}`}
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN rate_limits.window_started_at <= ${openedBefore} THEN 1 ELSE rate_limits.hits + 1 END,
         window_started_at = CASE WHEN rate_limits.window_started_at <= ${openedBefore} THEN ${now} ELSE rate_limits.window_started_at END
       RETURNING hits, window_started_at`;
};

/** When a window of `windowSeconds` that contains `now` opened before: the hit's `openedBefore`. */
export const windowOpenedBefore = (now: Date, windowSeconds: number): Date =>
  new Date(now.getTime() - windowSeconds * 1000);

/** What a hit's row says of the limit (no row: the hit was not counted, as the first one). */
export const rateLimitResult = (
  row: RateLimitHitRow | undefined,
  limit: number,
  windowSeconds: number,
  now: Date,
): RateLimitResult => {
  const hits = row?.hits ?? 1;

  return {
    allowed: hits <= limit,
    hits,
    retryAfterSeconds: row ? secondsLeft(row.window_started_at, windowSeconds, now) : 0,
  };
};

/** Fixed windows in one row per key; the upsert makes a hit atomic across processes. */
export const createRateLimiter = (db: SqlExecutor): RateLimiter => ({
  async hit(key, limit, windowSeconds, now) {
    const { rows } = await db.query<RateLimitHitRow>(
      rateLimitHitSql({ key: "$1", now: "$2", openedBefore: "$3" }),
      [key, now, windowOpenedBefore(now, windowSeconds)],
      "rate_limits_hit",
    );

    return rateLimitResult(rows[0], limit, windowSeconds, now);
  },

  async peek(keys, windowSeconds, now) {
    const { rows } = await db.query<{ key: string; hits: number; window_started_at: Date }>(
      "SELECT key, hits, window_started_at FROM rate_limits WHERE key = ANY($1::text[])",
      [keys],
      "rate_limits_peek",
    );
    const byKey = new Map(rows.map((row) => [row.key, row]));

    return keys.map((key) => {
      const row = byKey.get(key);
      if (!row || row.window_started_at.getTime() <= now.getTime() - windowSeconds * 1000) {
        return { hits: 0, retryAfterSeconds: 0 };
      }

      return { hits: row.hits, retryAfterSeconds: secondsLeft(row.window_started_at, windowSeconds, now) };
    });
  },

  async reset(key) {
    await db.query("DELETE FROM rate_limits WHERE key = $1", [key]);
  },
});
