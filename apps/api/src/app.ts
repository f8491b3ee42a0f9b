import { errorEnvelopeSchema } from "@agora/contracts/envelope";
import { operations } from "@agora/contracts/operations";
import { cors } from "hono/cors";
import { z } from "zod";
import type { AppDeps } from "./deps";
import { mountDocs } from "./http/docs";
import { onError } from "./http/errors";
import { createRequestHandler } from "./http/handler";
import { requestBody } from "./http/middleware/request-body";
import { createRouter } from "./http/openapi";
import { finishDocument } from "./http/openapi-document";
import { fail } from "./http/respond";
import { createRouteTable } from "./http/route-table";
import type { StartupGate } from "./http/startup-gate";
import { mountAreas } from "./modules/area";
import { areas } from "./modules/areas";
import { API_VERSION } from "./version";

/** Request bodies are small JSON documents; media bytes go straight to the object store. */
export const MAX_BODY_BYTES = 256 * 1024;

export const OPENAPI_PATH = "/api/v1/openapi.json";

const bodyMethods = ["POST", "PUT", "PATCH", "DELETE"];

const documentInfo = {
  openapi: "3.1.0",
  info: {
    title: "Agora API",
    version: API_VERSION,
    description:
      "The server behind the Agora marketplace-and-community app and its admin console. Every JSON response " +
      "uses one envelope: `{ success, data, meta, error, request_id }`; clients act on the HTTP status and " +
      "the stable `error.code`. Validation failures are 422 `validation_failed` with `error.details` " +
      "(`[{ path, message }]`). Unknown body fields are ignored; ids and owners in a body never override " +
      "the path or the token. Every response carries `X-Request-Id` (an incoming one is echoed when it is " +
      "1-128 characters of `A-Za-z0-9._:-`) and `Cache-Control: no-store` (responses carry tokens and personal " +
      "data; no cache may keep them). Bodies are limited to 256 KiB (413 `payload_too_large`); a " +
      "body that is not JSON is 415 `unsupported_media_type`; a known path with another method is 405 " +
      "`method_not_allowed` with `Allow`. A 503 `service_unavailable` with `Retry-After` means a dependency (the " +
      "database) is briefly unavailable or the service is starting: retry, with the same `Idempotency-Key` where " +
      "the route takes one." +
      " Any route may also answer 500 `internal_error` (no detail: the request id finds it in the log).",
  },
  servers: [{ url: "/" }],
};

/** The Hono application: routes, body guard, error mapping, OpenAPI document and reference. */
export const createApp = (deps: AppDeps) => {
  const { config } = deps;
  const app = createRouter();

  if (config.allowedOrigins.length > 0) {
    app.use(
      cors({
        origin: config.allowedOrigins,
        allowHeaders: [
          "Authorization",
          "Content-Type",
          "Idempotency-Key",
          "X-Request-Id",
          "X-Guest-Access-Token",
        ],
        exposeHeaders: [
          "X-Request-Id",
          "Retry-After",
          "Idempotent-Replayed",
          "RateLimit-Limit",
          "RateLimit-Remaining",
          "RateLimit-Reset",
        ],
        maxAge: 600,
      }),
    );
  }
  // Only where a body can arrive: GET routes stay free of middleware (and synchronous in Hono).
  app.on(bodyMethods, "*", requestBody(MAX_BODY_BYTES));

  // Every operation of the contracts' table, in its order, with the handler its area registers.
  // Write limits: the operations that declare `writeLimit` (docs/safety.md, "Write limits").
  mountAreas(app, operations, areas, deps, {
    rateLimits: deps.identity.repos.rateLimits,
    processCounted: deps.readLimits,
    clock: deps.clock,
    perHour: deps.config.writeLimitsPerHour,
    trustProxy: deps.config.trustProxy,
  });

  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "Access token from `POST /api/v1/auth/login/verify` or `/refresh`.",
  });
  const { $schema: _, ...errorEnvelope } = z.toJSONSchema(errorEnvelopeSchema);
  app.openAPIRegistry.registerComponent(
    "schemas",
    "ErrorEnvelope",
    errorEnvelope as Parameters<typeof app.openAPIRegistry.registerComponent>[2],
  );
  finishDocument(app);
  app.doc31(OPENAPI_PATH, documentInfo);
  mountDocs(app, OPENAPI_PATH, "Agora API reference");

  const { allowedMethods } = createRouteTable(app);
  app.notFound((c) => {
    const allowed = allowedMethods(c.req.path);
    if (allowed.length > 0) {
      return fail(c, 405, "method_not_allowed", `${c.req.method} is not allowed here.`, {
        headers: { allow: allowed.join(", ") },
      });
    }

    return fail(c, 404, "not_found", "No such route.");
  });
  app.onError(onError);

  return app;
};

export type App = ReturnType<typeof createApp>;

/**
 * The app behind the per-request wrapper (request id, security headers, access log, metrics), and
 * the start-up gate when the server opens it only once the database is ready.
 */
export const createHttpHandler = (deps: AppDeps, app: App = createApp(deps), gate?: StartupGate) =>
  createRequestHandler(app, {
    logger: deps.logger,
    metrics: deps.metrics,
    gate,
    lifecycle: deps.lifecycle,
    tracing: deps.tracing,
  });
