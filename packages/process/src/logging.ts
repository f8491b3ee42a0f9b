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
 * JSON lines on stdout, gathered into chunks of about 4 KiB (`chunkedStdout`), flushed at least
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
  const stdout = chunkedStdout(process.stdout);
  stdoutLoggers.push(stdout);
  setInterval(() => stdout.flush(), 250).unref();
  process.once("exit", () => stdout.flush());

  return pino(options(level), stdout);
};

/** The stdout destinations `createLogger` made in this process (one, outside tests). */
const stdoutLoggers: Array<{ dropped(): number }> = [];

/**
 * Log lines this process dropped since it started because stdout's reader had fallen too far behind
 * (`chunkedStdout`); `/metrics` reports it as `agora_log_lines_dropped_total` (log-metrics.ts).
 */
export const droppedLogLines = (): number =>
  stdoutLoggers.reduce((total, stdout) => total + stdout.dropped(), 0);

/** What `chunkedStdout` writes to: process.stdout, or a stream a test hands in. */
type ChunkSink = { write(chunk: string): unknown; readonly writableLength?: number };

/** How much a stalled reader of stdout may leave queued in the process before lines are dropped. */
const MAX_QUEUED_BYTES = 16 * 1024 * 1024;

/**
 * A pino destination that gathers lines and writes them to `sink` in chunks of `minLength`
 * characters or more (and on `flush`). Written through Node's process.stdout, a chunk goes out from
 * the thread that logs: pino's own asynchronous destination hands each write to libuv's thread
 * pool and back (two context switches, and its buffer is re-measured on every line while a write
 * is out): measured as about a sixth of `/health`'s CPU time (docs/performance.md, "Where a
 * request's CPU time goes"). When stdout's reader falls behind, Node queues the chunks (the event
 * loop does not wait); past `maxQueued` bytes queued, chunks are dropped rather than let memory
 * grow, and `dropped()` counts their lines.
 */
export const chunkedStdout = (sink: ChunkSink, minLength = 4096, maxQueued = MAX_QUEUED_BYTES) => {
  let lines: string[] = [];
  let length = 0;
  let droppedLines = 0;
  const flush = (done?: (error?: Error) => void) => {
    if (length > 0) {
      const chunk = lines.join("");
      if ((sink.writableLength ?? 0) > maxQueued) {
        droppedLines += lines.length;
      } else {
        sink.write(chunk);
      }
      lines = [];
      length = 0;
    }
    done?.();
  };

  return {
    write(line: string) {
      lines.push(line);
      length += line.length;
      if (length >= minLength) {
        flush();
      }
    },
    flush,
    /** Lines dropped because stdout's reader had fallen more than `maxQueued` bytes behind. */
    dropped: () => droppedLines,
  };
};
