// A small HTTP listener for what an orchestrator and Prometheus ask of a process: the worker's
// health and metrics port, and the API's separate metrics port (METRICS_PORT). node:http only, no
// framework: a handful of GET paths, each answering text.
import { createServer, type Server } from "node:http";

/** One path's answer, computed per request. */
export type ProbeAnswer = { status: number; body: string; contentType?: string };

export type ProbeServer = {
  /** Where it listens (port 0 picks a free one). */
  readonly port: number;
  close(): Promise<void>;
};

/**
 * Listens on `host`:`port` and answers GET (and HEAD) on each path of `routes`; any other path is
 * 404, any other method 405. A route that throws answers 500 with no detail.
 */
export const startProbeServer = (
  { host, port }: { host: string; port: number },
  routes: Record<string, () => ProbeAnswer | Promise<ProbeAnswer>>,
): Promise<ProbeServer> =>
  new Promise((resolve, reject) => {
    const server: Server = createServer((request, response) => {
      const path = (request.url ?? "/").split("?")[0] ?? "/";
      const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
      const send = ({ status, body, contentType }: ProbeAnswer) => {
        response.writeHead(status, {
          "content-type": contentType ?? "text/plain; charset=utf-8",
          "cache-control": "no-store",
        });
        response.end(request.method === "HEAD" ? undefined : body);
      };
      if (!route) {
        send({ status: 404, body: "not found\n" });

        return;
      }
      if (request.method !== "GET" && request.method !== "HEAD") {
        response.setHeader("allow", "GET, HEAD");
        send({ status: 405, body: "method not allowed\n" });

        return;
      }
      Promise.resolve()
        .then(route)
        .then(send, () => send({ status: 500, body: "internal error\n" }));
    });
    // Probes and scrapes are short: idle or slow clients do not hold sockets.
    server.headersTimeout = 5_000;
    server.requestTimeout = 10_000;
    server.keepAliveTimeout = 5_000;
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const address = server.address();
      resolve({
        port: typeof address === "object" && address ? address.port : port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
