import type { RateLimiter } from "@agora/domain/common/rate-limit";
import type { SqlExecutor } from "../sql";

const secondsLeft = (windowStartedAt: Date, windowSeconds: number, now: Date): number =>
  Math.max(0, (windowStartedAt.getTime() + windowSeconds * 1000 - now.getTime()) / 1000);

/** Fixed windows in one row per key; the upsert makes a hit atomic across processes. */
export const createRateLimiter = (db: SqlExecutor): RateLimiter => ({
  async hit(key, limit, windowSeconds, now) {
    const windowOpenedBefore = new Date(now.getTime() - windowSeconds * 1000);
    const { rows } = await db.query<{ hits: number; window_started_at: Date }>(
      `INSERT INTO rate_limits (key, window_started_at, hits) VALUES ($1, $2, 1)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN rate_limits.window_started_at <= $3 THEN 1 ELSE rate_limits.hits + 1 END,
         window_started_at = CASE WHEN rate_limits.window_started_at <= $3 THEN $2 ELSE rate_limits.window_started_at END
       RETURNING hits, window_started_at`,
      [key, now, windowOpenedBefore],
      "rate_limits_hit",
    );
    const row = rows[0];
    const hits = row?.hits ?? 1;

    return {
      allowed: hits <= limit,
      hits,
      retryAfterSeconds: row ? secondsLeft(row.window_started_at, windowSeconds, now) : 0,
    };
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
