// The outbox worker as its own process, and its composition root. Several may run beside each
// other and beside API processes running it embedded (WORKER=embedded); claims use SKIP LOCKED, so
// none double-delivers.
import { openDatabase } from "@agora/db/client";
import { openOutboxWakeup } from "@agora/db/outbox-wakeup";
import { createHousekeeper } from "@agora/db/repositories/housekeeping.repository";
import { createOutboxRepositories } from "@agora/db/repositories/index";
import { type EventDeliveryDeps, eventKinds } from "@agora/domain/event-kinds";
import { codeKeyFor } from "@agora/domain/identity/secrets";
import { guestReceiptSetup } from "@agora/domain/orders/guest-receipts";
import { createEventRegistry } from "@agora/domain/outbox/event-kind";
import type { OutboxEvent } from "@agora/domain/outbox/outbox.types";
import { runOutbox } from "@agora/domain/outbox/run-outbox";
import { systemClock } from "@agora/domain/shared/clock";
import { runHousekeeping } from "@agora/domain/shared/housekeeping";
import { configOrExit } from "@agora/runtime/config-or-exit";
import { databaseOptions } from "@agora/runtime/database";
import { createLogger, safeError } from "@agora/runtime/logging";
import { createMailer } from "@agora/runtime/mail/create-mailer";
import { logHousekeeping, logOutboxOutcome } from "@agora/runtime/outbox-logging";
import { createPush } from "@agora/runtime/push/create-push";
import { waitUntilAvailable } from "@agora/runtime/startup";
import { createObjectStore } from "@agora/runtime/storage/create-object-store";
import { traceDelivery } from "@agora/runtime/telemetry/outbox-spans";
import { startTracing } from "@agora/runtime/telemetry/tracing";
import { createVideo } from "@agora/runtime/video/create-video";
import { startWorkerHealthServer } from "./health-server";

const config = configOrExit();
const logger = createLogger({ level: config.logLevel, appEnv: config.appEnv }).child({ process: "worker" });

if (!config.databaseUrl) {
  // PGlite belongs to one process at a time: without a server database the API runs the worker.
  logger.warn(
    "DATABASE_URL is not set: the embedded database belongs to the API process, which runs the worker itself",
  );
  logger.flush();
  process.exit(0);
}

try {
  // Probes and scrapes are answered from the start: /health passes while the database is awaited
  // (start-up is bounded by DATABASE_STARTUP_TIMEOUT_MS), /ready once the loops run.
  const health = await startWorkerHealthServer(config, logger);
  // OpenTelemetry is imported only when OTEL_EXPORTER_OTLP_ENDPOINT is set.
  const tracing = await startTracing(config, { name: "agora-worker" });
  const database = await openDatabase(databaseOptions(config, "agora-worker", tracing, logger));
  // An unreachable database is waited for (one line per attempt, up to DATABASE_STARTUP_TIMEOUT_MS),
  // as the API does; later outages are the loop's own backoff.
  await waitUntilAvailable(() => database.ping(), {
    dependency: "database",
    logger,
    giveUpAfterMs: config.timeouts.databaseStartupMs,
  });
  const push = createPush(config);
  const objects = createObjectStore(config);
  const mail = createMailer(config, logger);
  const clock = systemClock;
  const repos = createOutboxRepositories(database);
  const registry = createEventRegistry(eventKinds);
  const delivery: EventDeliveryDeps = {
    notifications: repos.notifications,
    devices: repos.devices,
    push: push?.sender,
    clock,
    chat: repos.chat,
    users: repos.users,
    codes: repos.codes,
    rateLimits: repos.rateLimits,
    mailer: mail.mailer,
    codeKey: codeKeyFor(config.tokenSecret),
    video: createVideo(config)?.rooms,
    meetings: repos.meetings,
    guestReceipts: {
      receipts: repos.receipts,
      mailer: mail.mailer,
      ...guestReceiptSetup(config.tokenSecret, config),
    },
  };
  const deliver = (event: OutboxEvent) => registry.deliver(delivery, event);
  // New events wake an idle loop at once (LISTEN on DATABASE_LISTEN_URL); it still polls as a fallback.
  const wakeup = openOutboxWakeup(database, {
    onError: (error) =>
      logger.warn({ err: safeError(error) }, "outbox wake-up listener lost; polling meanwhile"),
  });
  await wakeup?.start();
  const controller = new AbortController();
  const log = logOutboxOutcome(logger);
  const running = Promise.all([
    runOutbox(
      {
        outbox: repos.outbox,
        deliver: tracing ? traceDelivery(tracing, deliver) : deliver,
        clock,
        random: Math.random,
        observe: (outcome) => {
          log(outcome);
          health.observe(outcome);
        },
      },
      {
        signal: controller.signal,
        leaseSeconds: config.outboxLeaseSeconds,
        batchSize: config.outboxBatchSize,
        loops: config.outboxLoops,
        wakeup,
      },
    ),
    runHousekeeping(
      { housekeeper: createHousekeeper(database.sql), objects: objects.store, clock },
      { signal: controller.signal, report: logHousekeeping(logger) },
    ),
  ]);
  health.running(config.outboxLoops);
  logger.info(
    {
      database: database.kind,
      push: push ? "fcm" : "off",
      mail: mail.kind,
      video: config.video ? "livekit" : "off",
      tracing: tracing ? "otlp" : "off",
      lease_seconds: config.outboxLeaseSeconds,
      batch_size: config.outboxBatchSize,
      loops: config.outboxLoops,
      health_port: health.port,
      event_kinds: registry.kinds,
    },
    "agora worker started",
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      return;
    }
    stopping = true;
    logger.info({ signal }, "agora worker stopping: finishing the batch in flight");
    health.stopping();
    controller.abort();
    await running;
    await health.close();
    await wakeup?.close();
    await push?.close();
    objects.close();
    await mail.close();
    await database.close();
    await tracing?.shutdown();
    logger.info("agora worker stopped");
    logger.flush();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
} catch (error) {
  logger.fatal({ err: safeError(error) }, "agora worker could not start");
  logger.flush();
  process.exit(1);
}
