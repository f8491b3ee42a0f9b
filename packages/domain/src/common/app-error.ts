import type { ErrorCode, FieldIssue } from "@agora/contracts/errors";

/** Where a counted limit stands (a quota or an hourly limit): the API says it in `RateLimit-*`. */
export type LimitState = { limit: number; remaining: number; resetSeconds: number };

/**
 * The one error type use cases throw. `code` is a stable wire code (contracts' errors); the API
 * maps it to an HTTP status (an operation may document another status for a code: `invalid_code`
 * is 401 at sign-in, 422 elsewhere). It carries domain facts only, never HTTP: `retryAfterSeconds`
 * (when trying again may succeed; the API's `Retry-After`) and `limit` (the refusing limit's state).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: FieldIssue[] | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly limit: LimitState | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options?: { details?: FieldIssue[]; retryAfterSeconds?: number; limit?: LimitState; cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options?.details;
    this.retryAfterSeconds =
      options?.retryAfterSeconds === undefined
        ? undefined
        : Math.max(1, Math.ceil(options.retryAfterSeconds));
    this.limit = options?.limit;
  }
}

/** Codes that say a dependency failed, not that the request was wrong: a retry may succeed. */
const transientCodes: ReadonlySet<ErrorCode> = new Set([
  "email_unavailable",
  "video_unavailable",
  "storage_unavailable",
  "service_unavailable",
  "internal_error",
]);

/** Whether `error` is a dependency failure (5xx) rather than a refusal of the request. */
export const isTransientError = (error: AppError): boolean => transientCodes.has(error.code);

/** Thrown when input passes the schema but breaks a rule only the domain knows (422). */
export class ValidationError extends AppError {
  constructor(details: FieldIssue[], message = "The request is invalid.") {
    super("validation_failed", message, { details });
  }
}

/** Thrown when a resource is absent or the caller may not know it exists (404). */
export class NotFoundError extends AppError {
  constructor(what: string) {
    super("not_found", `${what} not found.`);
  }
}

/** Thrown when the caller is known but lacks the role or right (403). */
export class ForbiddenError extends AppError {
  constructor(message = "You are not allowed to do this.") {
    super("forbidden", message);
  }
}

/** Thrown when the caller is not authenticated or the token no longer holds (401). */
export class UnauthorizedError extends AppError {
  constructor(message = "Authentication required.") {
    super("unauthorized", message);
  }
}

/** Thrown when a throttle window is still open (429); `retryAfterSeconds` becomes `Retry-After`. */
export class RateLimitedError extends AppError {
  declare readonly retryAfterSeconds: number;

  constructor(
    retryAfterSeconds: number,
    message = "Too many requests; try again later.",
    limit?: LimitState,
  ) {
    super("rate_limited", message, { retryAfterSeconds, ...(limit ? { limit } : {}) });
  }
}
