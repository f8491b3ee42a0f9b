import { AppError } from "@agora/domain/common/app-error";
import type { Logger } from "pino";

/** The database (or another dependency) could not be reached: worth another try, unlike a refusal. */
export const isUnavailable = (error: unknown): boolean =>
  error instanceof AppError && error.code === "service_unavailable";

/** Thrown by `waitUntilAvailable` when the limit passed with the dependency still unreachable. */
export class StartupTimeoutError extends Error {
  constructor(dependency: string, waitedMs: number, options?: { cause?: unknown }) {
    super(`${dependency} still unavailable after ${Math.round(waitedMs / 1000)} s`, options);
    this.name = "StartupTimeoutError";
  }
}

/** Thrown by `waitUntilAvailable` when the signal aborted before the dependency answered. */
export class StartupAbortedError extends Error {
  constructor() {
    super("start-up aborted");
    this.name = "StartupAbortedError";
  }
}

export type WaitOptions = {
  /** Named in each log line ("database"). */
  dependency: string;
  logger: Logger;
  /** Stop waiting (SIGTERM during start-up). */
  signal?: AbortSignal | undefined;
  /** Give up after this long; 0 = never. */
  giveUpAfterMs: number;
  /** First pause; it doubles per attempt up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
};

const pause = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

/**
 * Runs `attempt` until it succeeds. While it fails with "unavailable" (see isUnavailable) it waits
 * and tries again, 250 ms doubling to 5 s, one warning line per failed attempt; any other failure
 * (a wrong password, a broken migration) is thrown at once, since waiting would not fix it. Past
 * `giveUpAfterMs` it throws StartupTimeoutError, so the process exits and its supervisor decides.
 */
export const waitUntilAvailable = async <T>(attempt: () => Promise<T>, options: WaitOptions): Promise<T> => {
  const started = performance.now();
  const initialDelayMs = options.initialDelayMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 5_000;
  for (let count = 1; ; count += 1) {
    if (options.signal?.aborted) {
      throw new StartupAbortedError();
    }
    try {
      return await attempt();
    } catch (error) {
      if (!isUnavailable(error)) {
        throw error;
      }
      const waited = performance.now() - started;
      if (options.giveUpAfterMs > 0 && waited >= options.giveUpAfterMs) {
        throw new StartupTimeoutError(options.dependency, waited, { cause: error });
      }
      let delay = Math.min(maxDelayMs, initialDelayMs * 2 ** (count - 1));
      if (options.giveUpAfterMs > 0) {
        delay = Math.max(0, Math.min(delay, options.giveUpAfterMs - waited));
      }
      options.logger.warn(
        {
          dependency: options.dependency,
          attempt: count,
          retry_in_ms: Math.round(delay),
          // The driver's reason (the logger's serializer keeps its first line and code).
          err: (error as Error).cause ?? error,
        },
        `${options.dependency} unavailable at start-up; waiting`,
      );
      await pause(delay, options.signal);
    }
  }
};
