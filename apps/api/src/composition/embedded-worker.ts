// The outbox worker inside the API process (WORKER=embedded): the same createOutboxWorker
// apps/worker runs, over the API's adapters (built once in deps.ts: runtime.delivery).
import {
  createOutboxWorker,
  type OutboxWorker,
  outboxWorkerSettings,
} from "@agora/outbox-worker/outbox-worker";
import type { Runtime } from "../deps";
import { openConfiguredDatabase } from "./database";

/** Connections of the embedded worker's own pool (PostgreSQL). */
export const EMBEDDED_WORKER_POOL_MAX = 3;

export type EmbeddedWorker = OutboxWorker & {
  /** Closes the wake-up listener and the worker's own pool (after stop, or when stop ran out of time). */
  close(): Promise<void>;
};

/**
 * Starts the embedded worker. On PostgreSQL it gets a small pool of its own, so under load its
 * claims and inbox writes do not queue behind requests for the API's connections (that queueing is
 * what turns into delivery lag); its connections are on /metrics. PGlite has one connection: it
 * shares it.
 */
export const startEmbeddedWorker = async (runtime: Runtime): Promise<EmbeddedWorker> => {
  const { config, logger, metrics, outboxMetrics } = runtime;
  const shared = runtime.database.kind !== "postgres";
  const database = shared
    ? runtime.database
    : await openConfiguredDatabase(
        { ...config, databasePoolMax: EMBEDDED_WORKER_POOL_MAX },
        "agora-outbox",
        runtime.tracing,
        logger,
      );
  metrics.watchPool("outbox", () => (shared ? undefined : database.poolStats()));
  const settings = outboxWorkerSettings(config);
  const worker = await createOutboxWorker({
    database,
    ...runtime.delivery,
    clock: runtime.clock,
    logger,
    tracing: runtime.tracing,
    observe: (outcome) => outboxMetrics.observe(outcome),
    settings,
  });
  outboxMetrics.start(worker.loops);

  return {
    ...worker,
    async close() {
      await worker.close();
      if (!shared) {
        await database.close();
      }
    },
  };
};
