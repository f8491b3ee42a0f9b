import pino, { type DestinationStream, type Logger } from "pino";

const MAX_MESSAGE = 300;

type SafeError = { type: string; message: string; code?: string; cause?: SafeError };

/**
 * Errors go to the log as type, driver code and the first line of the message: no stack trace, and
 * no SQL (database drivers put the statement on later lines or in fields we do not copy).
 */
export const safeError = (error: unknown, depth = 0): SafeError => {
  if (!(error instanceof Error)) {
    return { type: typeof error, message: String(error).split("\n")[0]?.slice(0, MAX_MESSAGE) ?? "" };
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

export const createLogger = ({ level, destination }: LoggerOptions): Logger =>
  pino(
    {
      level,
      base: { service: "agora" },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: safeError, error: safeError },
      redact: {
        paths: [
          "password",
          "*.password",
          "token",
          "*.token",
          "refresh_token",
          "*.refresh_token",
          "authorization",
          "*.authorization",
        ],
        censor: "[redacted]",
      },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
