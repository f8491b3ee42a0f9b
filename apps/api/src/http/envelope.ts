import type { ErrorCode, FieldIssue } from "@agora/contracts/errors";
import type { Context } from "hono";
import type { AppEnv } from "./app-env";

/** `{ success: true, data, meta, error: null, request_id }` */
export const ok = <Data, Meta = null>(c: Context<AppEnv>, data: Data, meta: Meta = null as Meta) => ({
  success: true as const,
  data,
  meta,
  error: null,
  request_id: c.get("requestId"),
});

/** `{ success: false, data: null, meta: null, error: { code, message, details? }, request_id }` */
export const fail = (c: Context<AppEnv>, code: ErrorCode, message: string, details?: FieldIssue[]) => ({
  success: false as const,
  data: null,
  meta: null,
  error: details === undefined ? { code, message } : { code, message, details },
  request_id: c.get("requestId"),
});
