import type { ErrorCode, FieldIssue } from "@agora/contracts/errors";
import { AppError, type LimitState } from "@agora/domain/common/app-error";
import { ReplayedRefusal } from "@agora/domain/common/idempotency";
import type { Context, ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodError } from "zod";
import { type AppEnv, requestLogger } from "./app-env";
import { HttpRefusal } from "./http-refusal";
import { REPLAYED_HEADERS } from "./idempotency";
import { fail } from "./respond";

/**
 * The one code → status map; an operation may document another status for a code (`[401,
 * "invalid_code"]` at sign-in), which `errorStatuses` carries to the request.
 */
export const statusByCode = {
  validation_failed: 422,
  invalid_pagination: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  invalid_code: 422,
  invalid_refresh_token: 401,
  invalid_token: 422,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  unsupported_media_type: 415,
  upgrade_required: 426,
  username_taken: 409,
  email_taken: 409,
  idempotency_conflict: 409,
  idempotency_in_progress: 409,
  order_conflict: 409,
  payment_conflict: 409,
  last_admin: 409,
  invalid_transition: 422,
  item_unavailable: 422,
  plan_unavailable: 422,
  meeting_ended: 422,
  email_not_verified: 403,
  account_suspended: 403,
  rate_limited: 429,
  email_unavailable: 503,
  video_unavailable: 503,
  storage_unavailable: 503,
  service_unavailable: 503,
  payload_too_large: 413,
  internal_error: 500,
  content_blocked: 422,
  conflict: 409,
} as const satisfies Record<ErrorCode, ContentfulStatusCode>;

/** zod issues → `[{ path, message }]`; body fields are named by their path inside the body. */
export const issuesOf = (error: ZodError, target: string): FieldIssue[] =>
  error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");

    return { path: path || (target === "json" ? "body" : target), message: issue.message };
  });

const codeForHttpStatus = (status: number): ErrorCode => {
  switch (status) {
    case 400:
    case 422:
      return "validation_failed";
    case 401:
      return "unauthorized";
    case 403:
      return "forbidden";
    case 404:
      return "not_found";
    case 405:
      return "method_not_allowed";
    case 413:
      return "payload_too_large";
    case 415:
      return "unsupported_media_type";
    case 429:
      return "rate_limited";
    case 503:
      return "service_unavailable";
    default:
      return "internal_error";
  }
};

/**
 * Every 503, and a key still in flight (409 idempotency_in_progress), says when to try again, as
 * the OpenAPI document promises (an error may say otherwise).
 */
const retryLater = { "Retry-After": "1" };

/** The status of `error` on this request: its operation's documented one, else the code's. */
const statusOf = (c: Context<AppEnv>, error: AppError): ContentfulStatusCode =>
  (c.get("errorStatuses")?.[error.code] ?? statusByCode[error.code]) as ContentfulStatusCode;

/** A limit's state as the `RateLimit-*` headers say it. */
export const rateLimitHeadersOf = (limit: LimitState): Record<string, string> => ({
  "RateLimit-Limit": String(limit.limit),
  "RateLimit-Remaining": String(Math.max(0, limit.remaining)),
  "RateLimit-Reset": String(Math.max(0, Math.ceil(limit.resetSeconds))),
});

/**
 * The answer of an AppError: its status (statusOf), and the headers its facts ask for:
 * `Retry-After` (from `retryAfterSeconds`; 1 on every 503 and a key in flight unless it says
 * otherwise), `RateLimit-*` (from `limit`), an edge refusal's own, and a replay's mark.
 */
export const respondWithError = (c: Context<AppEnv>, error: AppError) => {
  const status = statusOf(c, error);
  const headers = {
    ...(status === 503 || error.code === "idempotency_in_progress" ? retryLater : {}),
    ...(error.retryAfterSeconds === undefined ? {} : { "Retry-After": String(error.retryAfterSeconds) }),
    ...(error.limit ? rateLimitHeadersOf(error.limit) : {}),
    ...(error instanceof HttpRefusal ? error.headers : {}),
    ...(error instanceof ReplayedRefusal ? REPLAYED_HEADERS : {}),
  };

  return fail(c, status, error.code, error.message, { details: error.details, headers });
};

export const onError: ErrorHandler<AppEnv> = (err, c) => {
  if (err instanceof AppError) {
    if (err.cause !== undefined && statusOf(c, err) >= 500) {
      // A dependency is down (database, mail): the reason (the cause's first line, no SQL) goes to
      // the log, the client gets the code.
      requestLogger(c).warn({ err }, "dependency unavailable");
    }

    return respondWithError(c, err);
  }
  if (err instanceof HTTPException && err.status < 500) {
    // Hono's own 4xx (validator, body limit): keep the status, give it our envelope and code.
    const code = codeForHttpStatus(err.status);
    const status = (code === "validation_failed" ? 422 : err.status) as ContentfulStatusCode;

    return fail(c, status, code, err.message || "The request is invalid.");
  }
  requestLogger(c).error({ err }, "unhandled error");

  return fail(c, 500, "internal_error", "An internal error occurred.");
};
