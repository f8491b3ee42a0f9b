import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { Logger } from "pino";
import type { AppEnv } from "../app-env";
import type { Metrics } from "../metrics";

// An incoming id is echoed only when it is short and plain (no header or log injection).
const acceptableRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

/** The route template that answered, for metrics and logs; unknown paths share one label. */
const routeTemplate = (c: Parameters<MiddlewareHandler<AppEnv>>[0]): string => {
  const route = matchedRoutes(c)[c.req.routeIndex];

  return route && route.method !== "ALL" ? route.path : "unmatched";
};

/**
 * Outermost middleware: assigns the request id (echoed as X-Request-Id), gives the request a
 * logger bound to it, and after the response records one log line and one histogram sample.
 */
export const requestContext =
  ({ logger, metrics }: { logger: Logger; metrics: Metrics }): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header("x-request-id");
    const requestId = incoming !== undefined && acceptableRequestId.test(incoming) ? incoming : randomUUID();
    c.set("requestId", requestId);
    c.set("logger", logger.child({ request_id: requestId }));

    await next();

    c.res.headers.set("X-Request-Id", requestId);
    const seconds = (performance.now() - started) / 1000;
    const status = c.res.status;
    const route = routeTemplate(c);
    metrics.httpDuration.labels(c.req.method, route, String(status)).observe(seconds);
    const line = {
      request_id: requestId,
      method: c.req.method,
      route,
      status,
      duration_ms: Math.round(seconds * 100_000) / 100,
    };
    if (status >= 500) {
      logger.error(line, "request failed");
    } else {
      logger.info(line, "request");
    }
  };
