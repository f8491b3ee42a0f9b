import { type SuccessEnvelope, successBody } from "@agora/contracts/envelope";
import type { ErrorCode, FieldIssue } from "@agora/contracts/errors";
import type { Context, TypedResponse } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "./app-env";
import { securityHeaders } from "./security-headers";

/** The responses built here: they already carry the request id and the security headers. */
const complete = new WeakSet<Response>();

/** The answers of admitted WebSocket upgrades: logged and measured as 101, never sent. */
const switching = new WeakSet<Response>();

/** Whether `response` was built here, with the request id and every security header. */
export const isComplete = (response: Response): boolean => complete.has(response);

/** Whether `response` is the answer of an admitted WebSocket upgrade (see `switchingProtocols`). */
export const isSwitchingProtocols = (response: Response): boolean => switching.has(response);

const jsonHeaders: Readonly<Record<string, string>> = Object.freeze({
  ...Object.fromEntries(securityHeaders),
  "content-type": "application/json",
});

/**
 * Builds the response with the standard Response constructor, all of its headers given at once in
 * one plain object (the envelope's headers, the security headers, the request id and the caller's
 * rate-limit headers), so that no later step has to read or add a header to it.
 */
export const respond = <T, S extends ContentfulStatusCode>(
  c: Context<AppEnv>,
  payload: T,
  status: S,
  headers?: Record<string, string>,
): Response & TypedResponse<T, S, "json"> => {
  const limit = c.get("rateLimitHeaders");
  const response = new Response(JSON.stringify(payload), {
    status,
    headers:
      headers || limit
        ? { ...jsonHeaders, "x-request-id": c.env.requestId, ...limit, ...headers }
        : { ...jsonHeaders, "x-request-id": c.env.requestId },
  });
  complete.add(response);

  return response as Response & TypedResponse<T, S, "json">;
};

/** `{ success: true, data, meta, error: null, request_id }`, 200 unless `status` says otherwise. */
export function ok<Data, S extends ContentfulStatusCode = 200, Meta = null>(
  c: Context<AppEnv>,
  data: Data,
  options?: { status?: S; meta?: Meta; headers?: Record<string, string> },
): Response & TypedResponse<SuccessEnvelope<Data, Meta>, S, "json"> {
  const body = successBody(data, (options?.meta ?? null) as Meta, c.env.requestId);

  return respond(c, body, (options?.status ?? 200) as S, options?.headers);
}

/** `{ success: false, data: null, meta: null, error: { code, message, details? }, request_id }` */
export const failure = (c: Context<AppEnv>, code: ErrorCode, message: string, details?: FieldIssue[]) => ({
  success: false as const,
  data: null,
  meta: null,
  error: details === undefined ? { code, message } : { code, message, details },
  request_id: c.env.requestId,
});

export const fail = (
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  code: ErrorCode,
  message: string,
  options?: { details?: FieldIssue[] | undefined; headers?: Record<string, string> | undefined },
) => respond(c, failure(c, code, message, options?.details), status, options?.headers);

/**
 * A 302 to `location` without a body (the mailed data export link's answer): the security headers,
 * the request id, and `no-store` and `no-referrer`, since the location is a presigned URL.
 */
export const found = (
  c: Context<AppEnv>,
  location: string,
): Response & TypedResponse<Record<string, never>, 302, string> => {
  const response = new Response(null, {
    status: 302,
    headers: {
      ...Object.fromEntries(securityHeaders),
      "x-request-id": c.env.requestId,
      location,
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
    },
  });
  complete.add(response);

  return response as Response & TypedResponse<Record<string, never>, 302, string>;
};

/**
 * The answer of a route that admitted a WebSocket upgrade (and left its grant in
 * `c.env.upgrade`): the realtime server switches protocols instead of sending it.
 */
export const switchingProtocols = (
  c: Context<AppEnv>,
): Response & TypedResponse<Record<string, never>, 101, string> => {
  const response = new Response(null, { status: 200, headers: { "x-request-id": c.env.requestId } });
  complete.add(response);
  switching.add(response);

  return response as Response & TypedResponse<Record<string, never>, 101, string>;
};
