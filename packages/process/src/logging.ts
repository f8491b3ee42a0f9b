import pino, { type DestinationStream, type Logger } from "pino";
import type { AppEnvName } from "./config";

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

export type LoggerOptions = {
  level: string;
  /** Where JSON lines go instead of stdout (tests); always JSON. */
  destination?: DestinationStream | undefined;
  /** With stdout a terminal, `development` prints readable lines (see `logFormat`). */
  appEnv?: AppEnvName | undefined;
};

export type LogFormat = "json" | "pretty";

/**
 * Readable lines for a person at a terminal in development; JSON lines everywhere else (production,
 * staging, tests, and any stdout that is a pipe or a file, where a collector reads them).
 */
export const logFormat = ({
  isTTY,
  appEnv,
}: {
  isTTY: boolean;
  appEnv: AppEnvName | undefined;
}): LogFormat => (isTTY && appEnv === "development" ? "pretty" : "json");

/**
 * pino-pretty, pino's own prettifier, as a transport (a worker thread writing to stdout). It is a
 * development dependency of the apps, resolved from the code that runs (the apps' dist/ when
 * bundled): a production tree does not have it, and then the lines stay JSON.
 */
const prettyTransport = (): DestinationStream | undefined => {
  let target: string;
  try {
    target = import.meta.resolve("pino-pretty");
  } catch {
    return undefined;
  }

  return pino.transport({
    target,
    options: {
      destination: 1,
      colorize: true,
      singleLine: true,
      translateTime: "SYS:HH:MM:ss.l",
      ignore: "pid,hostname,service",
    },
  });
};

const options = (level: string) => ({
  level,
  base: { service: "agora" },
  serializers: { err: safeError, error: safeError },
});

/**
 * JSON lines on stdout. Lines are buffered (4 KiB) and written asynchronously, flushed at least
 * every 250 ms and on exit: a write per line measured as a large share of a small request's cost.
 * Timestamps are epoch milliseconds (`time`) and levels numeric: pino's defaults and its fastest
 * path. Nothing is redacted because nothing secret is logged: request and response bodies,
 * headers and tokens never are, and errors pass through `safeError`.
 * At a terminal in development the same records are printed readably instead (`logFormat`).
 */
export const createLogger = ({ level, destination, appEnv }: LoggerOptions): Logger => {
  if (destination) {
    return pino(options(level), destination);
  }
  const pretty =
    logFormat({ isTTY: process.stdout.isTTY === true, appEnv }) === "pretty" ? prettyTransport() : undefined;
  if (pretty) {
    return pino(options(level), pretty);
  }
  const stdout = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => stdout.flush(), 250).unref();

  return pino(options(level), stdout);
};
