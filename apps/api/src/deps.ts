// The composition root: the one place that knows every adapter and wires them together.
import { openChatFanOut } from "@agora/db/chat-fan-out";
import { type Database, openDatabase } from "@agora/db/client";
import { createListingPageCache } from "@agora/db/listing-cache";
import { migrate, migrationLevel } from "@agora/db/migrator";
import { openOutboxWakeup } from "@agora/db/outbox-wakeup";
import { createHousekeeper } from "@agora/db/repositories/housekeeping.repository";
import { createOutboxRepositories, createRepositories, createUnitOfWork } from "@agora/db/repositories/index";
import { readOutboxFigures } from "@agora/db/repositories/outbox/outbox-events.repository";
import { seedCatalog } from "@agora/db/seed";
import type { AdministrationDeps } from "@agora/domain/administration/administration.deps";
import type { ChatDeps } from "@agora/domain/chat/chat.deps";
import type { CommunityDeps } from "@agora/domain/community/community.deps";
import { type EventDeliveryDeps, eventKinds } from "@agora/domain/event-kinds";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { codeKeyFor } from "@agora/domain/identity/secrets";
import type { LifestyleDeps } from "@agora/domain/lifestyle/lifestyle.deps";
import type { VideoRooms } from "@agora/domain/lifestyle/lifestyle.ports";
import type { MarketplaceDeps } from "@agora/domain/marketplace/marketplace.deps";
import type { PublicListing } from "@agora/domain/marketplace/marketplace.types";
import type { MediaDeps } from "@agora/domain/media/media.deps";
import type { NotificationsDeps } from "@agora/domain/notifications/notifications.deps";
import type { PushSender } from "@agora/domain/notifications/notifications.ports";
import {
  GUEST_CAPABILITY_BOX,
  type GuestReceiptDeps,
  guestMailStopKeyOf,
  guestReceiptSetup,
} from "@agora/domain/orders/guest-receipts";
import type { OrdersDeps } from "@agora/domain/orders/orders.deps";
import { createRecentItems } from "@agora/domain/orders/recent-items";
import { createEventRegistry } from "@agora/domain/outbox/event-kind";
import type { OutboxDeps } from "@agora/domain/outbox/outbox.deps";
import type { OutboxWakeup } from "@agora/domain/outbox/outbox.ports";
import type { PaymentsDeps } from "@agora/domain/payments/payments.deps";
import { type Clock, systemClock } from "@agora/domain/shared/clock";
import { runHousekeeping } from "@agora/domain/shared/housekeeping";
import { type IdGenerator, uuidV7Ids } from "@agora/domain/shared/ids";
import type { Mailer } from "@agora/domain/shared/mail";
import type { Page } from "@agora/domain/shared/page";
import { createSecretBox } from "@agora/domain/shared/secret-box";
import type { Config } from "@agora/runtime/config";
import { databaseOptions } from "@agora/runtime/database";
import { createLogger, safeError } from "@agora/runtime/logging";
import { type CreatedMailer, createMailer } from "@agora/runtime/mail/create-mailer";
import { logHousekeeping, logOutboxOutcome } from "@agora/runtime/outbox-logging";
import { createOutboxMetrics, type OutboxMetrics } from "@agora/runtime/outbox-metrics";
import { createPush } from "@agora/runtime/push/create-push";
import { createArgon2Passwords } from "@agora/runtime/security/argon2-passwords";
import { createJwtAccessTokens } from "@agora/runtime/security/jwt-access-tokens";
import { type CreatedObjectStore, createObjectStore } from "@agora/runtime/storage/create-object-store";
import { traceDelivery } from "@agora/runtime/telemetry/outbox-spans";
import { startTracing, type Tracing } from "@agora/runtime/telemetry/tracing";
import { createVideo } from "@agora/runtime/video/create-video";
import type { Logger } from "pino";
import type { IdempotencyDeps } from "./http/idempotency";
import { createLifecycle, type Lifecycle } from "./http/lifecycle";
import { createMetrics, type Metrics } from "./http/metrics";
import { API_VERSION, passOnce, ReadinessFailure, type ReadinessProbe } from "./modules/system/system.routes";
import type { RealtimeDeps } from "./realtime/realtime-server";

export type AppDeps = {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  /** Draining after SIGTERM (read by /ready and the request handler). */
  lifecycle: Lifecycle;
  /** OpenTelemetry spans, when OTEL_EXPORTER_OTLP_ENDPOINT is set. */
  tracing?: Tracing | undefined;
  clock: Clock;
  ids: IdGenerator;
  probes: ReadinessProbe[];
  identity: IdentityDeps;
  notifications: NotificationsDeps;
  marketplace: MarketplaceDeps;
  orders: OrdersDeps;
  payments: PaymentsDeps;
  community: CommunityDeps;
  lifestyle: LifestyleDeps;
  administration: AdministrationDeps;
  media: MediaDeps;
  chat: ChatDeps;
  /** The records of `Idempotency-Key`s of the operations whose use case does not keep them. */
  idempotency: IdempotencyDeps;
  /** What the realtime channel needs (started by the server, beside the HTTP listener). */
  realtime: RealtimeDeps;
  /** The outbox worker's dependencies over the request pool (the CLI's retry, tests). */
  outbox: OutboxDeps;
};

export type Runtime = AppDeps & {
  database: Database;
  /** What the embedded outbox worker did, on /metrics (the same series as the worker process's). */
  outboxMetrics: OutboxMetrics;
  mail: CreatedMailer;
  objects: CreatedObjectStore;
  /** Closes what createDeps opened (the database, unless it was handed in). */
  close(): Promise<void>;
};

export type DepsOverrides = {
  /** An already open database (tests); it stays open on close(). */
  database?: Database;
  logger?: Logger;
  clock?: Clock;
  mail?: CreatedMailer;
  /** Push sender (tests: the memory adapter); otherwise FCM when configured, else push is off. */
  push?: PushSender;
};

const openConfiguredDatabase = (
  config: Config,
  applicationName: string,
  tracing?: Tracing,
  logger?: Logger,
) => openDatabase(databaseOptions(config, applicationName, tracing, logger));

/** The outbox figures' statement timeout: a scrape answers within a second and a half regardless. */
const OUTBOX_FIGURES_TIMEOUT_MS = 1_000;

/**
 * Readiness of the schema: every migration this build carries is applied (and unchanged). Its good
 * answer is kept, so after the first pass a probe costs nothing.
 */
const schemaProbe = (database: Database): ReadinessProbe => ({
  name: "schema",
  requires: "database",
  check: passOnce(async () => {
    const { pending, changed } = await migrationLevel(database.sql);
    if (pending.length > 0) {
      throw new ReadinessFailure(
        `${pending.length} migration${pending.length === 1 ? "" : "s"} not applied: ${pending.join(", ")}`,
      );
    }
    if (changed.length > 0) {
      throw new ReadinessFailure(`applied migrations differ from this build's: ${changed.join(", ")}`);
    }
  }),
});

/**
 * The outbox worker over `database`: claims on its pool, and delivery by event kind through the
 * registry, with what the kinds need (inbox, devices, push, mail, the video service's rooms).
 */
const createOutboxDeps = (
  database: Database,
  {
    clock,
    push,
    logger,
    mailer,
    codeKey,
    guestReceipts,
    tracing,
    metrics,
    videoRooms,
  }: {
    clock: Clock;
    push: PushSender | undefined;
    logger: Logger;
    mailer: Mailer;
    codeKey: string;
    guestReceipts: Pick<GuestReceiptDeps, "secrets" | "settings">;
    tracing: Tracing | undefined;
    metrics: OutboxMetrics;
    videoRooms: VideoRooms | undefined;
  },
): OutboxDeps => {
  const repos = createOutboxRepositories(database);
  const registry = createEventRegistry(eventKinds);
  const delivery: EventDeliveryDeps = {
    notifications: repos.notifications,
    devices: repos.devices,
    push,
    clock,
    chat: repos.chat,
    users: repos.users,
    codes: repos.codes,
    rateLimits: repos.rateLimits,
    mailer,
    codeKey,
    video: videoRooms,
    meetings: repos.meetings,
    guestReceipts: { receipts: repos.receipts, mailer, ...guestReceipts },
  };

  const deliver: OutboxDeps["deliver"] = (event) => registry.deliver(delivery, event);
  const log = logOutboxOutcome(logger);

  return {
    outbox: repos.outbox,
    deliver: tracing ? traceDelivery(tracing, deliver) : deliver,
    clock,
    random: Math.random,
    observe: (outcome) => {
      log(outcome);
      metrics.observe(outcome);
    },
  };
};

export const createDeps = async (config: Config, overrides: DepsOverrides = {}): Promise<Runtime> => {
  const logger = overrides.logger ?? createLogger({ level: config.logLevel, appEnv: config.appEnv });
  // Traces belong to the serving process: tests and CLI verbs hand in their database and send none.
  const tracing = overrides.database
    ? undefined
    : await startTracing(config, { name: "agora-api", version: API_VERSION });
  const database = overrides.database ?? (await openConfiguredDatabase(config, "agora-api", tracing, logger));
  const ownsDatabase = overrides.database === undefined;
  const clock = overrides.clock ?? systemClock;
  const ids = uuidV7Ids;
  const mail = overrides.mail ?? createMailer(config, logger);
  const listingCache =
    config.listingsCacheEntries > 0
      ? createListingPageCache<Page<PublicListing>>(config.listingsCacheEntries)
      : undefined;
  const repos = createRepositories(database.sql, database.prisma, ids, {
    listings: { coalesce: config.listingsCoalesce, cache: listingCache },
  });
  const fcm = overrides.push ? undefined : createPush(config);
  const push = overrides.push ?? fcm?.sender;
  const uow = createUnitOfWork(database, ids);
  const secrets = createSecretBox(config.tokenSecret, GUEST_CAPABILITY_BOX);
  const objects = createObjectStore(config);
  const codeKey = codeKeyFor(config.tokenSecret);
  const video = createVideo(config);

  const identity: IdentityDeps = {
    uow,
    repos,
    clock,
    ids,
    mailer: mail.mailer,
    passwords: createArgon2Passwords(
      {},
      { concurrency: config.passwordHashConcurrency, queue: config.passwordHashQueue },
    ),
    accessTokens: createJwtAccessTokens(config.tokenSecret, config.accessTokenTtlSeconds),
    settings: {
      codeKey,
      refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
      refreshReuseGraceSeconds: config.refreshReuseGraceSeconds,
      sessionMaxAgeSeconds: config.sessionMaxAgeSeconds,
      authRequestsPerIp: config.rateLimitAuthPerIp,
      registrationsPerEmail: config.rateLimitRegisterPerEmail,
      resetRequestsPerEmail: config.rateLimitResetPerEmail,
    },
  };

  const metrics = createMetrics();
  const outboxMetrics = createOutboxMetrics(metrics.registry);
  metrics.watchPool("api", () => database.poolStats());
  metrics.watchOutbox(() => readOutboxFigures(database.sql, OUTBOX_FIGURES_TIMEOUT_MS));
  if (listingCache) {
    metrics.watchListingCache(() => listingCache.figures());
  }

  return {
    config,
    logger,
    metrics,
    outboxMetrics,
    lifecycle: createLifecycle(),
    tracing,
    clock,
    ids,
    database,
    mail,
    objects,
    identity,
    notifications: {
      notifications: repos.notifications,
      devices: repos.devices,
      push,
      clock,
      ids,
      deviceProofKey: `${config.tokenSecret}:device-proofs`,
    },
    marketplace: { uow, repos, clock, ids },
    idempotency: {
      idempotency: repos.idempotency,
      clock,
      secrets: createSecretBox(config.tokenSecret, "idempotent-answers"),
    },
    orders: {
      uow,
      repos,
      clock,
      ids,
      secrets,
      recentItems: createRecentItems(),
      settings: {
        guestOrdersPerIp: config.rateLimitGuestOrdersPerIp,
        guestOrdersPerEmail: config.rateLimitGuestOrdersPerEmail,
        guestMailStopKey: guestMailStopKeyOf(config.tokenSecret),
      },
    },
    payments: {
      uow,
      repos,
      clock,
      ids,
      secrets,
      settings: { listingPlan: config.listingPlan, paymentInstructions: config.paymentInstructions },
      objects: objects.store,
    },
    community: { uow, repos, clock, ids, objects: objects.store },
    media: { repos, clock, ids, objects: objects.store },
    lifestyle: {
      uow,
      repos,
      clock,
      ids,
      video: video?.tokens,
    },
    administration: { uow, repos, clock },
    chat: { repos, clock, ids },
    realtime: {
      openFanOut: (onError) => openChatFanOut(database, { onError }),
      connections: repos.chatConnections,
      sessions: repos.sessions,
      messages: repos.messages,
      conversations: repos.conversations,
      clock,
      ids,
    },
    outbox: createOutboxDeps(database, {
      clock,
      push,
      logger,
      mailer: mail.mailer,
      codeKey,
      guestReceipts: guestReceiptSetup(config.tokenSecret, config),
      tracing,
      metrics: outboxMetrics,
      videoRooms: video?.rooms,
    }),
    probes: [{ name: "database", check: () => database.ping() }, schemaProbe(database)],
    async close() {
      await mail.close();
      await fcm?.close();
      objects.close();
      if (ownsDatabase) {
        await database.close();
      }
      // Last: the spans of everything above are sent.
      await tracing?.shutdown();
    },
  };
};

/** What `pnpm start` does before serving: apply pending migrations, then load the catalog. */
export const prepareDatabase = async (database: Database, ids: IdGenerator) => {
  const migrated = await migrate(database.sql);
  const seeded = await seedCatalog(database.sql, ids);

  return { migrationsApplied: migrated.applied.length, ...seeded };
};

const withDatabase = async <T>(config: Config, work: (database: Database) => Promise<T>): Promise<T> => {
  const database = await openConfiguredDatabase(config, "agora-cli");
  try {
    return await work(database);
  } finally {
    await database.close();
  }
};

export const migrateCommand = (config: Config) => withDatabase(config, (database) => migrate(database.sql));

export const seedCommand = (config: Config) =>
  withDatabase(config, (database) => seedCatalog(database.sql, uuidV7Ids));

/** Runs `work` with the full dependencies over a short-lived database connection (CLI verbs). */
export const withRuntime = async <T>(config: Config, work: (runtime: Runtime) => Promise<T>): Promise<T> => {
  const database = await openConfiguredDatabase(config, "agora-cli");
  const logger = createLogger({ level: "silent" });
  const runtime = await createDeps(config, { database, logger });
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
    await database.close();
  }
};

/** Connections of the embedded worker's own pool (PostgreSQL). */
export const EMBEDDED_WORKER_POOL_MAX = 3;

export type EmbeddedWorkerDeps = {
  outbox: OutboxDeps;
  /** Its own pool's connections (PostgreSQL), for /metrics. */
  poolStats(): ReturnType<Database["poolStats"]>;
  /** Ends the loop's idle waits when events are written (PostgreSQL LISTEN/NOTIFY; PGlite polls). */
  wakeup: OutboxWakeup | undefined;
  /** Runs housekeeping until `signal` aborts. */
  housekeeping: (signal: AbortSignal) => Promise<void>;
  close(): Promise<void>;
};

/**
 * The embedded outbox worker (WORKER=embedded). On PostgreSQL it gets a small pool of its own, so
 * under load its claims and inbox writes do not queue behind requests for the API's connections
 * (that queueing is what turns into delivery lag). PGlite has one connection: it shares it.
 */
export const openEmbeddedWorker = async (runtime: Runtime): Promise<EmbeddedWorkerDeps> => {
  const shared = runtime.database.kind !== "postgres";
  const database = shared
    ? runtime.database
    : await openConfiguredDatabase(
        { ...runtime.config, databasePoolMax: EMBEDDED_WORKER_POOL_MAX },
        "agora-outbox",
        runtime.tracing,
        runtime.logger,
      );
  const { clock, logger } = runtime;
  const wakeup = openOutboxWakeup(database, {
    onError: (error) =>
      logger.warn({ err: safeError(error) }, "outbox wake-up listener lost; polling meanwhile"),
  });
  await wakeup?.start();

  return {
    wakeup,
    outbox: shared
      ? runtime.outbox
      : createOutboxDeps(database, {
          clock,
          push: runtime.notifications.push,
          logger,
          mailer: runtime.mail.mailer,
          codeKey: runtime.identity.settings.codeKey,
          guestReceipts: guestReceiptSetup(runtime.config.tokenSecret, runtime.config),
          tracing: runtime.tracing,
          metrics: runtime.outboxMetrics,
          videoRooms: createVideo(runtime.config)?.rooms,
        }),
    poolStats: () => (shared ? undefined : database.poolStats()),
    housekeeping: (signal) =>
      runHousekeeping(
        { housekeeper: createHousekeeper(database.sql), objects: runtime.objects.store, clock },
        { signal, report: logHousekeeping(logger) },
      ),
    close: async () => {
      await wakeup?.close();
      if (!shared) {
        await database.close();
      }
    },
  };
};
