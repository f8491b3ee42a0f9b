/**
 * Retry timing of failed outbox deliveries: exponential backoff with full jitter above a floor.
 * After failure n (1-based) the next attempt waits a uniform random time in
 * [BASE, min(CAP, BASE · 2^(n−1))]: 1 s after the first failure, up to 2 s after the second,
 * 4 s, 8 s … and at most 5 minutes. The floor keeps a failing dependency from being hammered;
 * the jitter spreads retries of events that failed together (one push outage) apart.
 */
export const OUTBOX_BACKOFF = { baseMs: 1_000, capMs: 5 * 60_000 } as const;

/** The delay before the next attempt after `failures` failed attempts. `random` is uniform in [0, 1). */
export const retryDelayMs = (
  failures: number,
  random: () => number,
  { baseMs, capMs }: { baseMs: number; capMs: number } = OUTBOX_BACKOFF,
): number => {
  const exponent = Math.min(Math.max(failures, 1) - 1, 30);
  const ceiling = Math.min(capMs, baseMs * 2 ** exponent);
  const unit = Math.min(Math.max(random(), 0), 1);

  return Math.round(baseMs + unit * (ceiling - baseMs));
};

/** The error as stored in `last_error` and logged: its type and the first line of its message, never a stack. */
export const describeFailure = (error: unknown): string => {
  const type = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split("\n")[0]?.trim() ?? "";

  return `${type}: ${line}`.slice(0, 500);
};
