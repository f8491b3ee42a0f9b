import type { SuccessEnvelope } from "@agora/contracts/envelope";
import type { ErrorCode, FieldIssue } from "@agora/contracts/errors";
import type { Context, TypedResponse } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "./app-env";
import { securityHeaders } from "./security-headers";

/** Marks responses built here: they already carry the request id and the security headers. */
export const COMPLETE = Symbol("agora.complete-response");

/** Marks the answer of an admitted WebSocket upgrade: logged and measured as 101, never sent. */
export const SWITCHING_PROTOCOLS = Symbol("agora.switching-protocols");

const jsonHeaders: Readonly<Record<string, string>> = Object.freeze({
  ...Object.fromEntries(securityHeaders),
  "content-type": "application/json",
});

/**
 * Builds the response with all of its headers in one plain object. The Node adapter passes such an
 * object straight to `writeHead`; Hono's `c.json` or `c.header` would build a WHATWG Headers object
 * per response instead, which measured as the largest single cost of a small JSON response.
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
  (response as Response & { [COMPLETE]?: true })[COMPLETE] = true;

  return response as Response & TypedResponse<T, S, "json">;
};

/** `{ success: true, data, meta, error: null, request_id }`, 200 unless `status` says otherwise. */
export function ok<Data, S extends ContentfulStatusCode = 200, Meta = null>(
  c: Context<AppEnv>,
  data: Data,
  options?: { status?: S; meta?: Meta; headers?: Record<string, string> },
): Response & TypedResponse<SuccessEnvelope<Data, Meta>, S, "json"> {
  const body: SuccessEnvelope<Data, Meta> = {
    success: true,
    data,
    meta: (options?.meta ?? null) as Meta,
    error: null,
    request_id: c.env.requestId,
  };

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
 * The answer of a route that admitted a WebSocket upgrade (and left its grant in
 * `c.env.upgrade`): the realtime server switches protocols instead of sending it.
 */
export const switchingProtocols = (
  c: Context<AppEnv>,
): Response & TypedResponse<Record<string, never>, 101, string> => {
  const response = new Response(null, { status: 200, headers: { "x-request-id": c.env.requestId } });
  Object.assign(response, { [COMPLETE]: true, [SWITCHING_PROTOCOLS]: true });

  return response as Response & TypedResponse<Record<string, never>, 101, string>;
};
