import { errorEnvelopeSchema } from "@agora/contracts/envelope";
import { ValidationError } from "@agora/domain/shared/app-error";
import { OpenAPIHono } from "@hono/zod-openapi";
import type { ZodError, z } from "zod";
import type { AppEnv } from "./app-env";
import { issuesOf } from "./errors";
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
export const createRouter = () => new OpenAPIHono<AppEnv>({ defaultHook: throwOnInvalid });

const errorDescriptions: Record<number, string> = {
  400: "Malformed parameters (`invalid_pagination`)",
  401: "Not authenticated (`unauthorized` and friends)",
  403: "Authenticated but not permitted (`forbidden`)",
  404: "Absent, or not visible to the caller (`not_found`)",
  409: "Conflict (see the error code)",
  413: "Body too large (`payload_too_large`)",
  415: "Body is not JSON (`unsupported_media_type`)",
  426: "Not a WebSocket upgrade request (`upgrade_required`)",
  422: "Validation failed (`validation_failed` with details) or a domain rule refused it",
  429: "Throttled (`rate_limited`, see `Retry-After`)",
  503: "A dependency is unavailable",
};

/** Documented error responses, all in the error envelope. */
export const errors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: errorDescriptions[status] ?? "Error",
        content: { "application/json": { schema: errorEnvelopeSchema } },
      },
    ]),
  );

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
