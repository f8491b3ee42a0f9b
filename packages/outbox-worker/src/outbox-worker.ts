// The outbox worker, assembled once: what delivering the event kinds needs, the claim loops, their
// wake-up and housekeeping. The API runs it embedded (WORKER=embedded) and apps/worker as its own
// process; both call createOutboxWorker. Claims use SKIP LOCKED, so any number of them can run beside
// each other without double delivery.
import type { Database } from "@agora/db/client";
import { openOutboxWakeup } from "@agora/db/outbox-wakeup";
import type { ChatSignalSink } from "@agora/db/repositories/chat/chat-signals";
import { createHousekeeper } from "@agora/db/repositories/housekeeping.repository";
import { createOutboxRepositories } from "@agora/db/repositories/index";
import type { Clock } from "@agora/domain/common/clock";
import { runHousekeeping } from "@agora/domain/common/housekeeping";
import type { Mailer } from "@agora/domain/common/mail";
import { eventKinds } from "@agora/domain/event-kinds";
import type { VideoRooms } from "@agora/domain/lifestyle/lifestyle.ports";
import type { MediaProcessor, ObjectStore } from "@agora/domain/media/media.ports";
import type { PushSender } from "@agora/domain/notifications/notifications.ports";
import type { GuestReceiptDeps } from "@agora/domain/orders/guest-receipts";
import { createEventRegistry, type EventKind } from "@agora/domain/outbox/event-kind";
import type { OutboxDeps, OutboxOutcome } from "@agora/domain/outbox/outbox.deps";
import { outboxLoopCount, runOutbox } from "@agora/domain/outbox/run-outbox";
import { safeError } from "@agora/process/logging";
import { logHousekeeping, logOutboxOutcome } from "@agora/process/outbox-logging";
import { traceDelivery } from "@agora/process/telemetry/outbox-spans";
import type { Tracing } from "@agora/process/telemetry/tracing";
import type { Logger } from "pino";

/**
 * The adapters the event kinds deliver through: built once per process from its configuration
 * (openDeliveryAdapters in delivery-adapters.ts), or handed in by a test.
 */
export type DeliveryAdapters = {
  mailer: Mailer;
  /** Undefined when no push provider is configured: the inbox rows are still written. */
  push: PushSender | undefined;
  /** Undefined without a video service: meeting ends and leaves tell none. */
  videoRooms: VideoRooms | undefined;
  /** The key new login and verification codes are stored under (KEY_PURPOSES.codes's current key). */
  codeKey: Buffer;
  emailUndoKey: Buffer;
  /** The verification mail's link (VERIFY_EMAIL_URL). */
  verifyEmailUrl: string;
  /** The base of the data export mail's download link (PUBLIC_API_URL); undefined: no link. */
  publicApiUrl: string | undefined;
  /** The email-changed mail's undo link (EMAIL_UNDO_URL). */
  emailUndoUrl: string;
  /** Uploads are processed and deleted media's objects removed here (housekeeping purges too). */
  objects: ObjectStore;
  /** Processes uploads; one per process, so its concurrency bound holds. */
  mediaProcessor: MediaProcessor;
  /** Guests' receipts: the capability box and the links' settings (guestReceiptSetup). */
  guestReceipts: Pick<GuestReceiptDeps, "secrets" | "settings">;
  /**
   * Where chat's realtime signals go with a broker fan-out (REALTIME_FANOUT=nats): a processed
   * image's message is signalled there. Undefined: they are pg_notify'd.
   */
  chatSignals?: ChatSignalSink | undefined;
};

export type OutboxDeliveryOptions = DeliveryAdapters & {
  clock: Clock;
  logger: Logger;
  tracing?: Tracing | undefined;
  /** Told every outcome beside the log (the process's metrics). */
  observe?: ((outcome: OutboxOutcome) => void) | undefined;
  /** The kinds delivered; every kind the service writes unless a test registers its own. */
  kinds?: ReadonlyArray<EventKind<unknown, DeliveryDeps>>;
};

/**
 * What every delivery is handed: the outbox's repositories and the process's adapters. The kinds
 * are registered against its type (DeliveryDeps), so a kind whose delivery needs anything not
 * built here fails to compile at the registration (see EventKind), not at its first delivery.
 */
const deliveryDeps = (
  repos: ReturnType<typeof createOutboxRepositories>,
  options: OutboxDeliveryOptions,
) => ({
  notifications: repos.notifications,
  devices: repos.devices,
  push: options.push,
  clock: options.clock,
  chat: repos.chat,
  users: repos.users,
  codes: repos.codes,
  rateLimits: repos.rateLimits,
  mailer: options.mailer,
  codeKey: options.codeKey,
  emailUndoKey: options.emailUndoKey,
  verifyEmailUrl: options.verifyEmailUrl,
  emailUndoUrl: options.emailUndoUrl,
  video: options.videoRooms,
  meetings: repos.meetings,
  objects: options.objects,
  mediaProcessing: {
    media: repos.media,
    objects: options.objects,
    processor: options.mediaProcessor,
    signals: repos.mediaSignals,
  },
  guestReceipts: { receipts: repos.receipts, mailer: options.mailer, ...options.guestReceipts },
  dataExports: repos.dataExports,
  publicApiUrl: options.publicApiUrl,
});

/** What the worker provides the event kinds' deliveries (built by deliveryDeps). */
export type DeliveryDeps = ReturnType<typeof deliveryDeps>;

/**
 * The outbox over `database`: claims on its pool, and delivery by event kind through the registry
 * with what the kinds need (inbox, devices, push, mail, the video service's rooms). Each outcome is
 * logged and observed; deliveries are spans when tracing is on.
 */
export const createOutboxDeps = (database: Database, options: OutboxDeliveryOptions): OutboxDeps => {
  const { clock, logger, tracing, observe } = options;
  const repos = createOutboxRepositories(database, { chatSignals: options.chatSignals });
  // The registration: each kind's deps are checked against what deliveryDeps builds.
  const registry = createEventRegistry<DeliveryDeps>(options.kinds ?? eventKinds);
  const delivery = deliveryDeps(repos, options);
  const deliver: OutboxDeps["deliver"] = (event) => registry.deliver(delivery, event);
  const log = logOutboxOutcome(logger);

  return {
    outbox: repos.outbox,
    deliver: tracing ? traceDelivery(tracing, deliver) : deliver,
    clock,
    random: Math.random,
    observe: (outcome) => {
      log(outcome);
      observe?.(outcome);
    },
  };
};

/**
 * OUTBOX_LEASE_SECONDS, OUTBOX_BATCH_SIZE and OUTBOX_LOOPS, housekeeping's
 * PENDING_ACCOUNT_TTL_SECONDS, and MEDIA_PROCESSING_CONCURRENCY as the batch of the uploads' own
 * loop (the kinds with `slowDelivery`), so the processor's bound is what limits it.
 */
export type OutboxWorkerSettings = {
  leaseSeconds: number;
  batchSize: number;
  loops: number;
  slowBatchSize: number;
  pendingAccountTtlSeconds: number;
};

export const outboxWorkerSettings = (config: {
  outboxLeaseSeconds: number;
  outboxBatchSize: number;
  outboxLoops: number;
  mediaProcessing: { concurrency: number };
  pendingAccountTtlSeconds: number;
}): OutboxWorkerSettings => ({
  leaseSeconds: config.outboxLeaseSeconds,
  batchSize: config.outboxBatchSize,
  loops: config.outboxLoops,
  slowBatchSize: config.mediaProcessing.concurrency,
  pendingAccountTtlSeconds: config.pendingAccountTtlSeconds,
});

export type OutboxWorkerOptions = OutboxDeliveryOptions & {
  /** Where events are claimed and delivered (and housekeeping purges). */
  database: Database;
  settings: OutboxWorkerSettings;
};

export type OutboxWorker = {
  /** The event kinds it delivers, by name. */
  readonly kinds: readonly string[];
  /** Its claim loops: `settings.loops`, and one for the kinds with `slowDelivery` (liveness watches each). */
  readonly loops: number;
  /** Aborts the loops and housekeeping; resolves once the batch in flight is recorded. */
  stop(): Promise<void>;
  /** Closes the wake-up listener (after stop, or when stop did not settle in time). */
  close(): Promise<void>;
};

/**
 * Builds the delivery dependencies over `options.database` and starts the claim loops and
 * housekeeping. New events wake an idle loop at once (LISTEN on DATABASE_LISTEN_URL, PostgreSQL);
 * the loops still poll as a fallback, and PGlite only polls.
 */
export const createOutboxWorker = async (options: OutboxWorkerOptions): Promise<OutboxWorker> => {
  const { database, logger, clock, settings } = options;
  const outbox = createOutboxDeps(database, options);
  const wakeup = openOutboxWakeup(database, {
    onError: (error) =>
      logger.warn({ err: safeError(error) }, "outbox wake-up listener lost; polling meanwhile"),
  });
  await wakeup?.start();
  const controller = new AbortController();
  const kinds = options.kinds ?? eventKinds;
  const loopOptions = {
    signal: controller.signal,
    leaseSeconds: settings.leaseSeconds,
    batchSize: settings.batchSize,
    loops: settings.loops,
    slowKinds: kinds.filter((kind) => kind.slowDelivery).map((kind) => kind.kind),
    slowBatchSize: settings.slowBatchSize,
    wakeup,
  };
  const running = Promise.all([
    runOutbox(outbox, loopOptions),
    runHousekeeping(
      {
        housekeeper: createHousekeeper(database.sql, {
          pendingAccountTtlSeconds: settings.pendingAccountTtlSeconds,
        }),
        objects: options.objects,
        clock,
      },
      { signal: controller.signal, report: logHousekeeping(logger) },
    ),
  ]);

  return {
    kinds: kinds.map((kind) => kind.kind),
    loops: outboxLoopCount(loopOptions),
    async stop() {
      controller.abort();
      await running;
    },
    async close() {
      await wakeup?.close();
    },
  };
};
