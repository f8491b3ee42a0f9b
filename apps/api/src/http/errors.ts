import type { ErrorCode, FieldIssue } from "@agora/contracts/errors";
import { AppError } from "@agora/domain/common/app-error";
import { ReplayedRefusal } from "@agora/domain/common/idempotency";
import type { Context, ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodError } from "zod";
import { type AppEnv, requestLogger } from "./app-env";
import { REPLAYED_HEADERS } from "./idempotency";
import { fail } from "./respond";

/** The one code → status map (a few errors carry their own status; see AppError). */
export const statusByCode = {
  validation_failed: 422,
  invalid_pagination: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  invalid_code: 422,
  invalid_refresh_token: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  unsupported_media_type: 415,
  upgrade_required: 426,
  username_taken: 409,
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

export const respondWithError = (c: Context<AppEnv>, error: AppError) => {
  const status = (error.status ?? statusByCode[error.code]) as ContentfulStatusCode;
  const headers =
    status === 503 || error.code === "idempotency_in_progress"
      ? { ...retryLater, ...error.headers }
      : error.headers;

  return fail(c, status, error.code, error.message, {
    details: error.details,
    headers: error instanceof ReplayedRefusal ? { ...headers, ...REPLAYED_HEADERS } : headers,
  });
};

export const onError: ErrorHandler<AppEnv> = (err, c) => {
  if (err instanceof AppError) {
    if (err.cause !== undefined && (err.status ?? statusByCode[err.code]) >= 500) {
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
