// Waiting in tests: for a condition another process, a socket or a background loop brings about.

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export type EventuallyOptions = {
  /** How long to keep asking before failing (default 15 s). */
  timeoutMs?: number;
  /** The pause between two asks (default 25 ms). */
  intervalMs?: number;
  /** A check that throws counts as "not yet" (a server still starting refuses connections). */
  retryErrors?: boolean;
};

/**
 * Asks `check` until it answers something other than `undefined` or `false`, and resolves to that
 * answer; fails with "condition not met in time" after the timeout (`options` may be just the
 * timeout in milliseconds). A boolean check waits for `true`; a value check for a value.
 */
export const eventually = async <T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  options: number | EventuallyOptions = {},
): Promise<Exclude<T, undefined | false>> => {
  const {
    timeoutMs = 15_000,
    intervalMs = 25,
    retryErrors = false,
  } = typeof options === "number" ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = retryErrors
      ? await Promise.resolve()
          .then(check)
          .catch(() => undefined)
      : await check();
    if (answer !== undefined && answer !== false) {
      return answer as Exclude<T, undefined | false>;
    }
    if (Date.now() > deadline) {
      throw new Error("condition not met in time");
    }
    await sleep(intervalMs);
  }
};
