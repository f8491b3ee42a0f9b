/**
 * Fixed-window counters shared by every process. `hit` counts one event against `key` and says
 * whether it is still within `limit` for the window of `windowSeconds` that contains it.
 */
export interface RateLimiter {
  hit(key: string, limit: number, windowSeconds: number, now: Date): Promise<RateLimitResult>;
  /** How many events `key` has in its current window (and when it ends), without counting one. */
  peek(key: string, windowSeconds: number, now: Date): Promise<{ hits: number; retryAfterSeconds: number }>;
  reset(key: string): Promise<void>;
}

export type RateLimitResult = { allowed: boolean; hits: number; retryAfterSeconds: number };
