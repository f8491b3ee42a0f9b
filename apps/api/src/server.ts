import type { Server } from "node:http";
import type { OutboxDeps } from "@agora/domain/outbox/outbox.deps";
import { runOutbox } from "@agora/domain/outbox/run-outbox";
import { type Config, unsafeDefaultsWarning } from "@agora/runtime/config";
import { safeError } from "@agora/runtime/logging";
import { serve } from "@hono/node-server";
import { createHttpHandler } from "./app";
import { createDeps, openEmbeddedWorker, prepareDatabase } from "./deps";
import type { RequestHandler } from "./http/handler";

/** How long in-flight requests get to finish after SIGTERM/SIGINT before connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

/** Starts the Node HTTP server with explicit header, request and keep-alive timeouts. */
export const listen = (
  fetch: RequestHandler,
  { host, port }: { host: string; port: number },
): Promise<Server> =>
  new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname: host, port }, () => resolve(server as Server)) as Server;
    // Explicit bounds: slow or idle clients cannot hold sockets forever.
    server.headersTimeout = 10_000;
    server.requestTimeout = 30_000;
    server.keepAliveTimeout = 5_000;
    server.on("error", reject);
  });

/**
 * Stops accepting connections and lets in-flight requests finish within `graceMs`; after that the
 * remaining connections are cut. Resolves true when everything finished in time.
 */
export const drain = async (server: Server, graceMs = SHUTDOWN_GRACE_MS): Promise<boolean> => {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Idle keep-alive sockets are closed at once, and again as in-flight requests finish.
  const sweeper = setInterval(() => server.closeIdleConnections(), 100);
  server.closeIdleConnections();
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

export type EmbeddedWorker = {
  /** Aborts the loop and resolves once the batch in flight is recorded. */
  stop(): Promise<void>;
};

/** The outbox worker inside the API process (WORKER=embedded): the same loop apps/worker runs. */
export const startEmbeddedWorker = (
  outbox: OutboxDeps,
  housekeeping?: (signal: AbortSignal) => Promise<void>,
): EmbeddedWorker => {
  const controller = new AbortController();
  const running = Promise.all([
    runOutbox(outbox, { signal: controller.signal }),
    housekeeping?.(controller.signal),
  ]);

  return {
    async stop() {
      controller.abort();
      await running;
    },
  };
};

/** Serves the API until SIGTERM/SIGINT, then stops accepting, drains, and closes the database. */
export const runServer = async (config: Config, options: { prepare: boolean }): Promise<void> => {
  let runtime: Awaited<ReturnType<typeof createDeps>>;
  try {
    runtime = await createDeps(config);
  } catch (error) {
    // Adapters that cannot start (database unreachable, unreadable FCM credentials): one line, exit 1.
    process.stderr.write(`agora: could not start: ${safeError(error).message}\n`);
    process.exit(1);
  }
  const { logger } = runtime;
  try {
    if (options.prepare) {
      const prepared = await prepareDatabase(runtime.database, runtime.ids);
      logger.info(prepared, "database ready");
    }
    const server = await listen(createHttpHandler(runtime), config);
    const address = server.address();
    logger.info(
      {
        address:
          typeof address === "object" && address ? `http://${address.address}:${address.port}` : address,
        env: config.appEnv,
        database: runtime.database.kind,
        worker: config.worker,
      },
      "agora api listening",
    );
    const unsafe = unsafeDefaultsWarning(config);
    if (unsafe) {
      logger.warn(`WARNING: ${unsafe}`);
    }
    const workerDeps = config.worker === "embedded" ? await openEmbeddedWorker(runtime) : undefined;
    const worker = workerDeps ? startEmbeddedWorker(workerDeps.outbox, workerDeps.housekeeping) : undefined;

    let stopping = false;
    const shutdown = async (signal: string) => {
      if (stopping) {
        return;
      }
      stopping = true;
      logger.info({ signal }, "shutting down: no new connections, draining in-flight requests");
      // The worker finishes its batch while requests drain; both end before the database closes.
      const [drained] = await Promise.all([drain(server), worker?.stop()]);
      await workerDeps?.close();
      await runtime.close();
      logger.info({ drained }, "stopped");
      logger.flush();
      process.exit(0);
    };
    process.once("SIGTERM", () => void shutdown("SIGTERM"));
    process.once("SIGINT", () => void shutdown("SIGINT"));
  } catch (error) {
    logger.fatal({ err: safeError(error) }, "could not start");
    await runtime.close().catch(() => {});
    logger.flush();
    process.exit(1);
  }
};
