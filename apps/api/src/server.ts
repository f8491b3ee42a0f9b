import type { Server } from "node:http";
import { Server as NetServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { type Config, unsafeDefaultsWarning } from "@agora/process/config";
import { safeError } from "@agora/process/logging";
import { type ProbeServer, startProbeServer } from "@agora/process/probe-server";
import { waitUntilAvailable } from "@agora/process/startup";
import { serve } from "@hono/node-server";
import type { Logger } from "pino";
import { createApp, createHttpHandler } from "./app";
import { prepareDatabase } from "./composition/commands";
import { type EmbeddedWorker, startEmbeddedWorker } from "./composition/embedded-worker";
import { createDeps } from "./deps";
import { answerClientErrors } from "./http/client-error";
import { type ConnectionTracker, trackConnections } from "./http/connections";
import type { RequestHandler } from "./http/handler";
import { createStartupGate } from "./http/startup-gate";
import { type RealtimeServer, startRealtime } from "./modules/chat/realtime/realtime-server";

/**
 * The drain limit: how long in-flight requests (and the embedded worker's batch) get to finish once
 * the server stops accepting, before connections are cut and the process exits anyway.
 */
const SHUTDOWN_GRACE_MS = 10_000;

const trackers = new WeakMap<Server, ConnectionTracker>();

/**
 * Starts the Node HTTP server with explicit header, request and keep-alive timeouts; requests the
 * HTTP parser refuses get the envelope too (see answerClientErrors).
 */
export const listen = (
  fetch: RequestHandler,
  { host, port }: { host: string; port: number },
  logger?: Logger,
): Promise<Server> =>
  new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname: host, port }, () => resolve(server as Server)) as Server;
    // Explicit bounds: slow or idle clients cannot hold sockets forever.
    server.headersTimeout = 10_000;
    server.requestTimeout = 30_000;
    server.keepAliveTimeout = 5_000;
    trackers.set(server, trackConnections(server));
    answerClientErrors(server, logger);
    server.on("error", reject);
  });

/**
 * Stops accepting connections and lets in-flight requests finish within `graceMs`; after that the
 * remaining connections are cut. Resolves true when everything finished in time.
 *
 * Idle keep-alive connections are closed once they have been idle a moment (IDLE_CUT_AFTER_MS),
 * not at once as `server.close()` would: a connection accepted just before the listener closed,
 * or one a balancer is sending on, gets its request served (with `Connection: close`) instead of
 * a reset.
 */
export const drain = async (server: Server, graceMs = SHUTDOWN_GRACE_MS): Promise<boolean> => {
  const tracker = trackers.get(server);
  const closed = new Promise<void>((resolve) => {
    if (tracker) {
      // The listener only: http.Server#close would also cut every connection Node deems idle.
      NetServer.prototype.close.call(server, () => resolve());
    } else {
      server.close(() => resolve());
    }
  });
  const closeIdle = () => (tracker ? tracker.closeIdle() : server.closeIdleConnections());
  const sweeper = setInterval(closeIdle, 50);
  closeIdle();
  const timedOut = await Promise.race([
    closed.then(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(true), graceMs).unref()),
  ]);
  clearInterval(sweeper);
  if (timedOut) {
    server.closeAllConnections();
  }

  return !timedOut;
};

/** Resolves true when `work` settles within `ms`, false when the time ran out first. */
const settlesWithin = async (work: Promise<unknown>, ms: number): Promise<boolean> => {
  const controller = new AbortController();
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      sleep(ms, false, { signal: controller.signal }),
    ]);
  } finally {
    controller.abort();
  }
};

/**
 * Serves the API until SIGTERM/SIGINT, then shuts down in this order:
 *
 * 1. draining: `/ready` answers 503 (`process: shutting down`) and every response carries
 *    `Connection: close`, while requests are still served. On SIGTERM (once started) this lasts
 *    SHUTDOWN_DELAY_MS, so a balancer polling `/ready` moves traffic away first; SIGINT skips it.
 * 2. The listener closes (new connections are refused), in-flight requests finish, realtime sockets
 *    close with 1001, and the embedded worker finishes the batch it holds; all within the drain
 *    limit (10 s), after which remaining connections are cut.
 * 3. The database closes (and traces are flushed); the process exits 0.
 *
 * It listens first and then waits for the database (and, with `prepare`, migrates and seeds): while
 * the database is unreachable `/health` is 200 and `/ready` 503, requests are 503, and each failed
 * attempt logs one line (backoff 250 ms doubling to 5 s). After DATABASE_STARTUP_TIMEOUT_MS without
 * a database it exits 1 for its supervisor to restart it (0 = wait forever). An error that waiting
 * cannot fix (authentication, a failing migration) exits 1 at once.
 */
export const runServer = async (config: Config, options: { prepare: boolean }): Promise<void> => {
  let runtime: Awaited<ReturnType<typeof createDeps>>;
  try {
    runtime = await createDeps(config);
  } catch (error) {
    // Adapters that cannot start (an embedded database held by another process, unreadable FCM
    // credentials): one line, exit 1.
    process.stderr.write(`agora: could not start: ${safeError(error).message}\n`);
    process.exit(1);
  }
  const { logger } = runtime;
  const gate = createStartupGate();
  const starting = new AbortController();
  let server: Server | undefined;
  let worker: EmbeddedWorker | undefined;
  let realtime: RealtimeServer | undefined;
  let metricsServer: ProbeServer | undefined;

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      return;
    }
    stopping = true;
    starting.abort();
    runtime.lifecycle.drain();
    // Nothing routes to a process that is still starting: no reason to wait then.
    const delayMs = signal === "SIGTERM" && gate.isOpen ? config.shutdownDelayMs : 0;
    logger.info({ signal, delay_ms: delayMs }, "shutting down: /ready answers 503");
    if (delayMs > 0) {
      await sleep(delayMs);
    }
    logger.info("no new connections; draining in-flight requests");
    let exitCode = 0;
    try {
      // drain() closes the listener at once; realtime sockets close beside it (the server's close
      // waits for every connection, upgraded ones included) and the worker finishes its batch.
      const [drained, , workerStopped] = await Promise.all([
        server ? drain(server, SHUTDOWN_GRACE_MS) : true,
        realtime?.close(),
        worker ? settlesWithin(worker.stop(), SHUTDOWN_GRACE_MS) : true,
      ]);
      if (!workerStopped) {
        logger.warn("the outbox batch in flight did not finish in time; its events return after their lease");
      }
      await metricsServer?.close();
      await worker?.close();
      await runtime.close();
      logger.info({ drained }, "stopped");
    } catch (error) {
      logger.error({ err: safeError(error) }, "shutdown failed");
      exitCode = 1;
    } finally {
      logger.flush();
      process.exit(exitCode);
    }
  };
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));

  try {
    const handler = createHttpHandler(runtime, createApp(runtime), gate);
    server = await listen(handler, config, logger);
    if (config.metricsPort !== undefined) {
      // /metrics only here (the main port answers it 404): expose this port to Prometheus alone.
      metricsServer = await startProbeServer(
        { host: config.host, port: config.metricsPort },
        {
          "/metrics": async () => ({
            status: 200,
            body: await runtime.metrics.render(),
            contentType: runtime.metrics.registry.contentType,
          }),
        },
      );
    }
    const address = server.address();
    logger.info(
      {
        address:
          typeof address === "object" && address ? `http://${address.address}:${address.port}` : address,
        env: config.appEnv,
        database: runtime.database.kind,
        worker: config.worker,
        tracing: runtime.tracing ? "otlp" : "off",
        metrics_port: metricsServer?.port ?? "main",
      },
      "agora api listening",
    );
    const unsafe = unsafeDefaultsWarning(config);
    if (unsafe) {
      logger.warn(`WARNING: ${unsafe}`);
    }
    const prepared = await waitUntilAvailable(
      async () => {
        await runtime.database.ping();

        return options.prepare ? prepareDatabase(runtime.database, runtime.ids) : undefined;
      },
      {
        dependency: "database",
        logger,
        signal: starting.signal,
        giveUpAfterMs: config.timeouts.databaseStartupMs,
      },
    );
    logger.info(prepared ?? {}, "database ready");
    if (stopping) {
      return;
    }
    // Until here an upgrade request is an ordinary request, which the closed gate answers 503.
    realtime = await startRealtime(server, handler, { deps: runtime.realtime, logger });
    const sockets = realtime;
    runtime.metrics.watchRealtime(() => sockets.size);
    worker = config.worker === "embedded" ? await startEmbeddedWorker(runtime) : undefined;
    gate.open();
    logger.info("agora api ready");
  } catch (error) {
    if (stopping) {
      // SIGTERM during start-up: shutdown() exits.
      return;
    }
    logger.fatal({ err: safeError(error) }, "could not start");
    server?.closeAllConnections();
    await runtime.close().catch(() => {});
    logger.flush();
    process.exit(1);
  }
};
