import { AppError } from "@agora/domain/common/app-error";

/**
 * Thrown by the SQL executors when the database cannot be reached or dropped the connection: the
 * server is down, restarting or refusing connections, the pool found no free connection within its
 * acquire timeout, or a statement ran past its timeout. The work did not happen, or (when the
 * connection broke during COMMIT) its outcome is unknown to us; either way it is worth retrying
 * shortly, so it is the wire's 503 `service_unavailable` with `Retry-After`. The driver's error is
 * kept as `cause` for the log and never reaches a response.
 */
export class DatabaseUnavailableError extends AppError {
  constructor(cause: unknown) {
    super("service_unavailable", "The service is temporarily unavailable; try again shortly.", {
      retryAfterSeconds: 1,
      cause,
    });
  }
}

/**
 * A DatabaseUnavailableError that retrying will not fix: the connection pooler between us and
 * PostgreSQL does not keep named prepared statements (PgBouncer before 1.21 in transaction mode,
 * many managed poolers), so a statement prepared on one server connection is executed on another
 * ("prepared statement … does not exist", SQLSTATE 26000) or prepared twice on one ("… already
 * exists", 42P05). A configuration fault, not a bug in the request: still the wire's 503 (never a
 * 500, never the SQL), and the process logs it once, loudly, naming the setting to change
 * (DATABASE_PREPARED_STATEMENTS=unnamed); see `onConfigurationFault` in client/database.ts.
 */
export class DatabaseMisconfiguredError extends DatabaseUnavailableError {
  readonly setting = "DATABASE_PREPARED_STATEMENTS=unnamed";
}

const preparedStatementStates = new Set(["26000", "42P05"]);

/** The driver's, or Prisma's adapter's, SQLSTATE of a prepared statement lost or doubled by a pooler. */
const isPreparedStatementFault = (error: unknown): boolean => {
  if (typeof error !== "object" || error === null) {
    return false;
  }
  const { code, meta } = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: unknown } } };
  if (typeof code === "string" && preparedStatementStates.has(code)) {
    return true;
  }
  const cause = meta?.driverAdapterError?.cause as { originalCode?: unknown } | undefined;

  return typeof cause?.originalCode === "string" && preparedStatementStates.has(cause.originalCode);
};

// Node's socket errors: the server is unreachable or the connection broke.
const socketCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * PostgreSQL SQLSTATEs that mean "not now" rather than "wrong": class 08 (connection exception),
 * 57P01-57P03 (terminated by an administrator or a shutdown, crash recovery, cannot connect now),
 * class 53 (insufficient resources: too many connections, out of memory or disk), 57014
 * (query_canceled: our statement_timeout, or an operator's pg_cancel_backend) and 25P03 (the
 * server ended a transaction left idle past idle_in_transaction_session_timeout).
 *
 * A statement timeout is a 503 and not a 500 on purpose: it says the database is too slow or too
 * contended right now (the same statement normally finishes in milliseconds), which a retry with
 * backoff can get past, and which a client must not read as "this request is wrong".
 */
const isUnavailableSqlState = (code: string): boolean =>
  code.startsWith("08") ||
  code.startsWith("53") ||
  code === "57P01" ||
  code === "57P02" ||
  code === "57P03" ||
  code === "57014" ||
  code === "25P03";

// What node-postgres and pg-pool throw without a code (their messages are stable API by now).
const driverMessages = [
  /^Connection terminated/, // "... unexpectedly", "... due to connection timeout"
  /^timeout exceeded when trying to connect$/, // pg-pool: no free connection within the acquire timeout
  /^Query read timeout$/, // the client-side query timeout
  /is not queryable$/, // "Client has encountered a connection error and is not queryable"
  /^Cannot use a pool after calling end on the pool$/,
];

// Prisma's errors for the same failures, through the driver adapter: its own connection codes
// (P1001 unreachable, P1002 timed out, P1008 operation timed out, P1017 connection closed, P2024 no
// pool connection in time), and the adapter error it carries with the driver's kind or SQLSTATE.
const prismaCodes = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
const adapterKinds = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
]);

const isPrismaUnavailable = (error: object): boolean => {
  const { code, meta } = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: unknown } } };
  if (typeof code === "string" && prismaCodes.has(code)) {
    return true;
  }
  const cause = meta?.driverAdapterError?.cause as { kind?: unknown; originalCode?: unknown } | undefined;

  return (
    (typeof cause?.kind === "string" && adapterKinds.has(cause.kind)) ||
    (typeof cause?.originalCode === "string" && isUnavailableSqlState(cause.originalCode))
  );
};

/** True when `error` says the database is unavailable (see DatabaseUnavailableError), not that the work is wrong. */
export const isConnectionFailure = (error: unknown, depth = 0): boolean => {
  if (error instanceof DatabaseUnavailableError) {
    return true;
  }
  if (typeof error !== "object" || error === null || depth > 2) {
    return false;
  }
  // Only the driver's own fields: an error that merely wraps a socket failure (a mail provider's,
  // say) in its `cause` is not the database's.
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (
    typeof code === "string" &&
    (socketCodes.has(code) || (/^[0-9A-Z]{5}$/.test(code) && isUnavailableSqlState(code)))
  ) {
    return true;
  }
  if (typeof message === "string" && driverMessages.some((pattern) => pattern.test(message))) {
    return true;
  }
  if (isPrismaUnavailable(error)) {
    return true;
  }
  // Connecting to "localhost" tries each address and reports an AggregateError of the refusals.
  if (
    Array.isArray(errors) &&
    errors.length > 0 &&
    errors.every((inner) => isConnectionFailure(inner, depth + 1))
  ) {
    return true;
  }

  return false;
};

/**
 * `error` as the rest of the system should see it: connection failures become
 * DatabaseUnavailableError, and a pooler's lost prepared statements DatabaseMisconfiguredError.
 */
export const translateDatabaseError = (error: unknown): unknown => {
  if (error instanceof DatabaseUnavailableError) {
    return error;
  }
  if (isPreparedStatementFault(error)) {
    return new DatabaseMisconfiguredError(error);
  }

  return isConnectionFailure(error) ? new DatabaseUnavailableError(error) : error;
};
