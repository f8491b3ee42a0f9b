import pino, { type DestinationStream, type Logger } from "pino";

const MAX_MESSAGE = 300;

type SafeError = { type: string; message: string; code?: string; cause?: SafeError };

/**
 * Errors go to the log as type, driver code and the first line of the message: no stack trace, and
 * no SQL (database drivers put the statement on later lines or in fields we do not copy).
 */
export const safeError = (error: unknown, depth = 0): SafeError => {
  if (!(error instanceof Error)) {
    // Some libraries throw plain objects (WASM runtimes' exit statuses): keep what names them.
    const described =
      typeof error === "object" && error !== null
        ? (JSON.stringify(error, Object.getOwnPropertyNames(error).slice(0, 8)) ?? String(error))
        : String(error);

    return { type: typeof error, message: described.split("\n")[0]?.slice(0, MAX_MESSAGE) ?? "" };
  }
  const code = (error as { code?: unknown }).code;
  const safe: SafeError = {
    type: error.name,
    message: (error.message.split("\n")[0] ?? "").slice(0, MAX_MESSAGE),
    ...(typeof code === "string" ? { code } : {}),
  };
  if (error.cause !== undefined && depth < 3) {
    safe.cause = safeError(error.cause, depth + 1);
  }

  return safe;
};

export type LoggerOptions = { level: string; destination?: DestinationStream | undefined };

/**
 * JSON lines on stdout. Lines are buffered (4 KiB) and written asynchronously, flushed at least
 * every 250 ms and on exit: a write per line measured as a large share of a small request's cost.
 * Timestamps are epoch milliseconds (`time`) and levels numeric: pino's defaults and its fastest
 * path. Nothing is redacted because nothing secret is logged: request and response bodies,
 * headers and tokens never are, and errors pass through `safeError`.
 */
export const createLogger = ({ level, destination }: LoggerOptions): Logger => {
  let stream = destination;
  if (!stream) {
    const stdout = pino.destination({ dest: 1, sync: false, minLength: 4096 });
    setInterval(() => stdout.flush(), 250).unref();
    stream = stdout;
  }

  return pino(
    { level, base: { service: "agora" }, serializers: { err: safeError, error: safeError } },
    stream,
  );
};
