import type { ErrorCode } from "@agora/contracts/errors";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./app-env";
import { statusByCode } from "./errors";
import { errorResponse } from "./openapi";
import { servedWhileStarting } from "./startup-gate";

const bodyMethods = new Set(["post", "put", "patch", "delete"]);

/** What every body route can refuse before its handler runs (the request-body guard). */
const bodyRefusals: ErrorCode[] = ["payload_too_large", "unsupported_media_type", "validation_failed"];

type ErrorResponse = ReturnType<typeof errorResponse>;

const codesOf = (response: unknown): ErrorCode[] => {
  const schema = (response as Partial<ErrorResponse> | undefined)?.content?.["application/json"]?.schema;

  return schema?.allOf?.[1]?.properties?.error?.properties?.code?.enum ?? [];
};

/**
 * Completes the registered routes before the document is generated (once, after every route is
 * mounted) with the refusals each shares with every route of its kind: 413/415/422 for a body
 * method, 422 for any validated input (path, query, headers), and 503 `service_unavailable` for
 * anything the start-up gate or a database outage can refuse. A route without an `operationId`
 * (every operation of the contracts has one) refuses to build.
 */
export const finishDocument = (app: OpenAPIHono<AppEnv>): void => {
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type !== "route") {
      continue;
    }
    const { route } = definition;
    if (!route.operationId) {
      throw new Error(`openapi: no operationId for ${route.method.toUpperCase()} ${route.path}`);
    }

    const shared: ErrorCode[] = [
      ...(bodyMethods.has(route.method) ? bodyRefusals : []),
      ...(route.request ? (["validation_failed"] as const) : []),
      ...(route.method === "get" && servedWhileStarting.has(route.path)
        ? []
        : ["service_unavailable" as const]),
    ];
    const responses: Record<string, unknown> = { ...route.responses };
    for (const code of shared) {
      const status = statusByCode[code];
      const codes = codesOf(responses[status]);
      if (!codes.includes(code)) {
        responses[status] = errorResponse(status, [...codes, code]);
      }
    }
    const ordered = Object.fromEntries(
      Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)),
    ) as typeof route.responses;

    Object.assign(definition, { route: { ...route, responses: ordered } });
  }
};
