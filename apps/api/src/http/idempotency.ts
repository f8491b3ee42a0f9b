import type { SuccessEnvelope } from "@agora/contracts/envelope";
import type { ErrorCode, FieldIssue } from "@agora/contracts/errors";
import type { StoredResponse } from "@agora/domain/orders/orders.ports";
import { AppError } from "@agora/domain/shared/app-error";
import type { Context, TypedResponse } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "./app-env";
import { statusByCode } from "./errors";
import { fail, ok } from "./respond";

type StoredError = { code: ErrorCode; message: string; details?: FieldIssue[] };

/** A refusal worth replaying (4xx), as it is stored with its key; 5xx are not stored. */
export const storedRefusal = (error: unknown): StoredResponse | undefined => {
  if (!(error instanceof AppError)) {
    return undefined;
  }
  const status = error.status ?? statusByCode[error.code];
  if (status >= 500) {
    return undefined;
  }
  const body: StoredError = {
    code: error.code,
    message: error.message,
    ...(error.details ? { details: error.details } : {}),
  };

  return { status, body };
};

/**
 * A stored first response, answered again with `Idempotent-Replayed: true`. Typed as the route's
 * success response: a stored refusal goes out as the same error envelope it was the first time.
 */
export const replay = <T, S extends ContentfulStatusCode>(
  c: Context<AppEnv>,
  response: StoredResponse,
  successStatus: S,
  withSecret?: (body: T, secret: string) => T,
): Response & TypedResponse<SuccessEnvelope<T, null>, S, "json"> => {
  const headers = { "idempotent-replayed": "true" };
  if (response.status >= 400) {
    const error = response.body as StoredError;
    const refusal = fail(c, response.status as ContentfulStatusCode, error.code, error.message, {
      details: error.details,
      headers,
    });

    return refusal as unknown as Response & TypedResponse<SuccessEnvelope<T, null>, S, "json">;
  }
  const body = response.body as T;
  const data = response.secret !== undefined && withSecret ? withSecret(body, response.secret) : body;

  return ok(c, data, { status: successStatus, headers });
};
