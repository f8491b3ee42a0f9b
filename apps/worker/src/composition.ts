// The worker process's composition root: its database and the adapters its event kinds deliver
// through, built from the configuration (openDeliveryAdapters, as the API builds its own), then the
// outbox worker itself (@agora/outbox-worker, the same one the API runs embedded).

import { openDatabase } from "@agora/db/client";
import { openNatsChatBroker } from "@agora/db/nats-fan-out";
import { systemClock } from "@agora/domain/common/clock";
import { openDeliveryAdapters } from "@agora/outbox-worker/delivery-adapters";
import { createOutboxWorker, outboxWorkerSettings } from "@agora/outbox-worker/outbox-worker";
import type { Config } from "@agora/process/config";
import { databaseOptions } from "@agora/process/database";
import { safeError } from "@agora/process/logging";
import { waitUntilAvailable } from "@agora/process/startup";
import { startTracing } from "@agora/process/telemetry/start-tracing";
import type { Logger } from "pino";
import type { WorkerHealthServer } from "./health-server";

/**
 * Starts the worker: tracing, the database (waited for, one line per attempt, up to
 * DATABASE_STARTUP_TIMEOUT_MS, as the API does; later outages are the loop's own backoff), the
 * adapters and the loops. Resolves to its orderly stop: the batch in flight is finished first.
 */
export const startWorker = async (config: Config, logger: Logger, health: WorkerHealthServer) => {
  // OpenTelemetry is imported only when OTEL_EXPORTER_OTLP_ENDPOINT is set.
  const tracing = await startTracing(config, { name: "agora-worker" });
  const database = await openDatabase(databaseOptions(config, "agora-worker", tracing, logger));
  await waitUntilAvailable(() => database.ping(), {
    dependency: "database",
    logger,
    giveUpAfterMs: config.timeouts.databaseStartupMs,
  });
  const settings = outboxWorkerSettings(config);
  // REALTIME_FANOUT=nats: the API processes hear chat's signals there only, so a processed image's
  // message is signalled through NATS too (publishes only: the worker has no sockets).
  const broker =
    config.realtimeFanOut.kind === "nats"
      ? openNatsChatBroker({
          url: config.realtimeFanOut.url,
          subject: config.realtimeFanOut.subject,
          name: "agora-worker",
          onError: (error) => logger.warn({ err: safeError(error) }, "realtime: broker"),
        })
      : undefined;
  const adapters = openDeliveryAdapters(config, logger, { chatSignals: broker?.sink });
  const worker = await createOutboxWorker({
    database,
    ...adapters.delivery,
    clock: systemClock,
    logger,
    tracing,
    observe: health.observe,
    settings,
  });
  health.running(worker.loops);
  logger.info(
    {
      database: database.kind,
      push: adapters.delivery.push ? "fcm" : "off",
      mail: adapters.mail.kind,
      video: config.video ? "livekit" : "off",
      realtime_fanout: config.realtimeFanOut.kind,
      tracing: tracing ? "otlp" : "off",
      lease_seconds: settings.leaseSeconds,
      batch_size: settings.batchSize,
      loops: worker.loops,
      health_port: health.port,
      event_kinds: worker.kinds,
    },
    "agora worker started",
  );

  return async () => {
    health.stopping();
    await worker.stop();
    await health.close();
    await worker.close();
    await broker?.close();
    await adapters.close();
    await database.close();
    await tracing?.shutdown();
  };
};
