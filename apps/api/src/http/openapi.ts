import type { ErrorCode } from "@agora/contracts/errors";
import { ValidationError } from "@agora/domain/common/app-error";
import { OpenAPIHono } from "@hono/zod-openapi";
import type { ZodError, z } from "zod";
import type { AppEnv } from "./app-env";
import { issuesOf, statusByCode } from "./errors";
import { StaticPathRouter } from "./router";
import { unstorableTextIssues } from "./storable-text";

/**
 * The validation hook of every route: a failure becomes 422 validation_failed through the one
 * onError. Valid input (body, query, path, headers) that holds text PostgreSQL cannot store is
 * refused here too, for every route at once.
 */
export const throwOnInvalid = (
  result:
    | { success: true; data: unknown; target: string }
    | { success: false; error: ZodError; target: string },
): undefined => {
  if (!result.success) {
    throw new ValidationError(issuesOf(result.error, result.target));
  }
  const unstorable = unstorableTextIssues(result.data, result.target);
  if (unstorable.length > 0) {
    throw new ValidationError(unstorable);
  }

  return undefined;
};

/** A router whose validation failures become 422 validation_failed through the one onError. */
export const createRouter = () =>
  new OpenAPIHono<AppEnv>({
    defaultHook: throwOnInvalid,
    router: new StaticPathRouter(),
  });

const errorDescriptions: Record<number, string> = {
  400: "Malformed parameters",
  401: "Not authenticated, or the credentials were refused",
  403: "Authenticated but not permitted",
  404: "Absent, or not visible to the caller",
  409: "Conflict with the current state",
  413: "Body over 256 KiB",
  415: "Body is not JSON",
  422: "Validation failed (`details` lists the fields) or a domain rule refused it",
  426: "Not a WebSocket upgrade request",
  429: "Throttled; retry after `Retry-After` seconds",
  503: "A dependency is briefly unavailable; retry after `Retry-After` seconds",
};

/** The component every error response refers to (registered by createApp). */
export const ERROR_ENVELOPE_REF = "#/components/schemas/ErrorEnvelope";

const retryAfter = {
  "Retry-After": {
    description: "Seconds to wait before trying again.",
    schema: { type: "integer", minimum: 1 } as const,
  },
};

/** One documented error status: the envelope, with `error.code` narrowed to the codes it can carry. */
export const errorResponse = (status: number, codes: readonly ErrorCode[]) => ({
  description: `${errorDescriptions[status] ?? "Error"}: ${codes.map((code) => `\`${code}\``).join(", ")}.`,
  ...(status === 429 || status === 503 || codes.includes("idempotency_in_progress")
    ? { headers: retryAfter }
    : {}),
  content: {
    "application/json": {
      schema: {
        allOf: [
          { $ref: ERROR_ENVELOPE_REF },
          {
            type: "object" as const,
            properties: {
              error: {
                type: "object" as const,
                properties: { code: { type: "string" as const, enum: [...codes] } },
              },
            },
          },
        ],
      },
    },
  },
});

/** A documented error: its code, or `[status, code]` for the one code whose status varies (`invalid_code`). */
export type DocumentedError = ErrorCode | readonly [status: 401 | 422, code: ErrorCode];

/**
 * The error responses of a route, from the codes it can answer: each code under its status (the
 * one code → status map), each status documented once with the codes it can carry. Refusals every
 * body route shares (413, 415, a body that is not JSON) and the start-up / outage 503 are added to
 * every operation by `finishDocument`.
 */
export const errors = (...documented: DocumentedError[]) => {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const entry of documented) {
    const [status, code] = typeof entry === "string" ? [statusByCode[entry], entry] : entry;
    const codes = byStatus.get(status) ?? [];
    if (!codes.includes(code)) {
      codes.push(code);
    }
    byStatus.set(status, codes);
  }

  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, codes]) => [status, errorResponse(status, codes)]),
  );
};

/** A documented JSON success response. */
export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** A required JSON request body. */
export const body = <T extends z.ZodType>(schema: T, description?: string) => ({
  body: {
    required: true,
    content: { "application/json": { schema } },
    ...(description ? { description } : {}),
  },
});
