import { randomUUID } from "node:crypto";
import type { ActiveSpan, Tracing } from "@agora/process/telemetry/tracing";
import type { Http2Bindings, HttpBindings } from "@hono/node-server";
import type { Hono } from "hono";
import type { Logger } from "pino";
import type { AppEnv, UpgradeSlot } from "./app-env";
import type { Lifecycle } from "./lifecycle";
import type { Metrics } from "./metrics";
import { isComplete, isSwitchingProtocols } from "./respond";
import { createRouteTable } from "./route-table";
import { securityHeaders } from "./security-headers";
import type { StartupGate } from "./startup-gate";

// An incoming id is echoed only when it is short and plain (no header or log injection).
const acceptableRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

type Observer = { observe(value: number): void };

/**
 * What a request arrives with besides itself: Node's request and response from the adapter, and,
 * for an HTTP Upgrade the realtime server hands over, the slot a route admits it in (no response).
 */
export type ServerBindings = Partial<HttpBindings | Http2Bindings> & { upgrade?: UpgradeSlot };

export type RequestHandler = (request: Request, bindings?: ServerBindings) => Response | Promise<Response>;

/**
 * Wraps the Hono app with what every request gets: a request id (echoed as X-Request-Id and in
 * the envelope), the security headers, one histogram sample and one access-log line.
 *
 * This sits around `app.fetch` rather than in a Hono middleware on purpose: with no middleware on a
 * route Hono answers it synchronously, and an async wrapper middleware is a large share of the
 * cost of a small request (docs/performance.md). Route templates for metrics and logs come from the route table.
 */
export const createRequestHandler = (
  app: Hono<AppEnv>,
  {
    logger,
    metrics,
    gate,
    lifecycle,
    tracing,
  }: {
    logger: Logger;
    metrics: Metrics;
    gate?: StartupGate | undefined;
    lifecycle?: Lifecycle | undefined;
    /** With tracing on, each request runs in a server span (continuing an incoming `traceparent`). */
    tracing?: Tracing | undefined;
  },
): RequestHandler => {
  const routeTable = createRouteTable(app);
  // Most traffic repeats a few concrete paths: remember each one's template and its histogram
  // children by status (bounded), so the hot path does one lookup and skips prom-client's label
  // hashing.
  type Known = { route: string; observers: Map<number, Observer> };
  const recent = new Map<string, Known>();
  const known = (method: string, path: string): Known => {
    const key = `${method} ${path}`;
    let found = recent.get(key);
    if (found === undefined) {
      if (recent.size >= 1024) {
        recent.clear();
      }
      found = { route: routeTable.template(method, path), observers: new Map() };
      recent.set(key, found);
    }

    return found;
  };
  const observer = (method: string, { route, observers }: Known, status: number): Observer => {
    let found = observers.get(status);
    if (!found) {
      found = metrics.httpDuration.labels(method, route, String(status));
      observers.set(status, found);
    }

    return found;
  };
  const handle = (
    request: Request,
    bindings: Parameters<RequestHandler>[1],
    span?: ActiveSpan,
  ): Response | Promise<Response> => {
    const started = performance.now();
    const incoming = bindings?.incoming;
    if (lifecycle?.draining) {
      // Shutting down: this connection ends after this response (Node honours the header).
      const outgoing = bindings?.outgoing;
      if (outgoing && "setHeader" in outgoing && !outgoing.headersSent) {
        outgoing.setHeader("connection", "close");
      }
    }
    const offered = incoming
      ? incoming.headers["x-request-id"]
      : (request.headers.get("x-request-id") ?? undefined);
    const requestId =
      typeof offered === "string" && acceptableRequestId.test(offered) ? offered : randomUUID();
    const method = request.method;

    // Node's request target (`IncomingMessage.url`) is the path and query as sent; without Node
    // (an in-process test's fetch) the path comes from the URL.
    const pathOf = () =>
      incoming?.url ? (incoming.url.split("?")[0] ?? "/") : new URL(request.url).pathname;
    const finish = (response: Response): Response => {
      if (!isComplete(response)) {
        // Built outside respond() (CORS preflight, /docs, Hono internals): add what it lacks.
        response.headers.set("x-request-id", requestId);
        for (const [name, value] of securityHeaders) {
          if (!response.headers.has(name)) {
            response.headers.set(name, value);
          }
        }
      }
      const seconds = (performance.now() - started) / 1000;
      const status = isSwitchingProtocols(response) ? 101 : response.status;
      const entry = known(method, pathOf());
      const route = entry.route;
      observer(method, entry, status).observe(seconds);
      const line = {
        request_id: requestId,
        method,
        route,
        status,
        duration_ms: Math.round(seconds * 100_000) / 100,
      };
      if (status >= 500) {
        logger.error(line, "request failed");
      } else {
        logger.info(line, "request");
      }
      if (span) {
        span.updateName(`${method} ${route}`);
        span.setAttributes({
          "http.route": route,
          "http.response.status_code": status,
          "url.path": pathOf(),
          "agora.request_id": requestId,
        });
        if (status >= 500) {
          span.fail();
        }
      }

      return response;
    };

    if (gate && !gate.isOpen) {
      const early = gate.answer(method, pathOf(), requestId);
      if (early) {
        return finish(early);
      }
    }

    const result = app.fetch(request, {
      ...bindings,
      requestId,
      rootLogger: logger,
    } satisfies AppEnv["Bindings"]);

    return result instanceof Promise ? result.then(finish) : finish(result);
  };

  if (!tracing) {
    return handle;
  }
  const header = (request: Request, bindings: Parameters<RequestHandler>[1], name: string) => {
    const value = bindings?.incoming ? bindings.incoming.headers[name] : request.headers.get(name);

    return typeof value === "string" ? value : undefined;
  };

  return (request, bindings) =>
    tracing.inSpan(
      request.method,
      {
        kind: "server",
        attributes: { "http.request.method": request.method },
        carrier: {
          traceparent: header(request, bindings, "traceparent"),
          tracestate: header(request, bindings, "tracestate"),
        },
      },
      (span) => handle(request, bindings, span),
    );
};
