// The composition root: the one place that knows every adapter and wires them together. What each
// area gets is composition/area-deps.ts; the CLI's commands are composition/commands.ts and the
// embedded outbox worker composition/embedded-worker.ts.

import type { CreatedMailer } from "@agora/adapters/mail/create-mailer";
import type { CreatedObjectStore } from "@agora/adapters/storage/create-object-store";
import { openChatFanOut } from "@agora/db/chat-fan-out";
import type { Database } from "@agora/db/client";
import { createListingPageCache } from "@agora/db/listing-cache";
import { openNatsChatBroker } from "@agora/db/nats-fan-out";
import {
  type BatchedRateLimiter,
  createBatchedRateLimiter,
} from "@agora/db/repositories/batched-rate-limits";
import {
  createSessionActivity,
  type SessionActivityRecorder,
} from "@agora/db/repositories/identity/session-activity";
import { createRepositories, createUnitOfWork } from "@agora/db/repositories/index";
import { createContentFilterSource } from "@agora/db/repositories/moderation/content-filters.repository";
import { readOutboxFigures } from "@agora/db/repositories/outbox/outbox-events.repository";
import { type Clock, systemClock } from "@agora/domain/common/clock";
import { type IdGenerator, uuidV7Ids } from "@agora/domain/common/ids";
import type { Page } from "@agora/domain/common/page";
import type { PublicListing } from "@agora/domain/marketplace/marketplace.types";
import { createContentFilterCache } from "@agora/domain/moderation/content-filter-cache";
import type { PushSender } from "@agora/domain/notifications/notifications.ports";
import type { OutboxDeps } from "@agora/domain/outbox/outbox.deps";
import { openDeliveryAdapters } from "@agora/outbox-worker/delivery-adapters";
import { createOutboxDeps, type DeliveryAdapters } from "@agora/outbox-worker/outbox-worker";
import type { Config } from "@agora/process/config";
import { createLogger } from "@agora/process/logging";
import { createOutboxMetrics, type OutboxMetrics } from "@agora/process/outbox-metrics";
import { startTracing } from "@agora/process/telemetry/start-tracing";
import type { Tracing } from "@agora/process/telemetry/tracing";
import type { Logger } from "pino";
import { type AreaDeps, createAreaDeps } from "./composition/area-deps";
import { openConfiguredDatabase, schemaProbe } from "./composition/database";
import { createLifecycle, type Lifecycle } from "./http/lifecycle";
import { createMetrics, type Metrics } from "./http/metrics";
import { createFanOutWatch, type FanOutWatch } from "./modules/chat/realtime/fan-out-watch";
import type { RealtimeDeps } from "./modules/chat/realtime/realtime-server";
import type { ReadinessProbe } from "./modules/system/readiness";
import { API_VERSION } from "./version";

export type AppDeps = AreaDeps & {
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
  /** The limits on reads (public search), counted in the process and flushed each second. */
  readLimits: BatchedRateLimiter;
  /** The realtime fan-out the realtime server opened: its connection, for /ready and /metrics. */
  realtimeFanOut: FanOutWatch;
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
  /**
   * The adapters the event kinds deliver through, built once (openDeliveryAdapters): `outbox` and
   * the embedded worker deliver with them, and the areas use the same mailer, push and object store.
   */
  delivery: DeliveryAdapters;
  /** When sessions were last used: held in the process, written once a minute (tests flush it). */
  sessionActivity: SessionActivityRecorder;
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

/** The outbox figures' statement timeout: a scrape answers within a second and a half regardless. */
const OUTBOX_FIGURES_TIMEOUT_MS = 1_000;

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
  const listingCache =
    config.listingsCacheEntries > 0
      ? createListingPageCache<Page<PublicListing>>(config.listingsCacheEntries)
      : undefined;
  // REALTIME_FANOUT=nats: chat statements do not pg_notify; their signals go to NATS once committed.
  const broker =
    config.realtimeFanOut.kind === "nats"
      ? openNatsChatBroker({
          url: config.realtimeFanOut.url,
          subject: config.realtimeFanOut.subject,
          onError: (error) => logger.warn({ err: error }, "realtime: broker"),
        })
      : undefined;
  const repos = createRepositories(database.sql, database.prisma, ids, {
    listings: { coalesce: config.listingsCoalesce, cache: listingCache },
    chatSignals: broker?.sink,
  });
  const readLimits = createBatchedRateLimiter(database.sql, {
    onError: (error) => logger.warn({ err: error }, "read limits: flush failed; counts kept for the next"),
  });
  const sessionActivity = createSessionActivity(database.sql, {
    onError: (error) =>
      logger.warn({ err: error }, "session activity: write failed; times kept for the next"),
  });
  const adapters = openDeliveryAdapters(config, logger, {
    mail: overrides.mail,
    push: overrides.push,
    chatSignals: broker?.sink,
  });
  const { delivery, mail, objects } = adapters;
  const areas = createAreaDeps(config, {
    repos,
    uow: createUnitOfWork(database, ids, { chatSignals: broker?.sink }),
    clock,
    ids,
    mailer: mail.mailer,
    push: delivery.push,
    objects: objects.store,
    videoTokens: adapters.videoTokens,
    sessionActivity,
    filters: createContentFilterCache(createContentFilterSource(database.sql)),
  });

  const metrics = createMetrics();
  const outboxMetrics = createOutboxMetrics(metrics.registry);
  metrics.watchPool("api", () => database.poolStats());
  metrics.watchOutbox(() => readOutboxFigures(database.sql, OUTBOX_FIGURES_TIMEOUT_MS));
  if (listingCache) {
    metrics.watchListingCache(() => listingCache.figures());
  }
  const realtimeFanOut = createFanOutWatch(config.realtimeFanOut.kind);
  metrics.watchFanOut(() => realtimeFanOut.figures());

  return {
    ...areas,
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
    delivery,
    readLimits,
    sessionActivity,
    realtime: {
      openFanOut: (onError) =>
        realtimeFanOut.track(broker ? broker.openFanOut(onError) : openChatFanOut(database, { onError })),
      connections: repos.chatConnections,
      sessions: repos.sessions,
      sessionMaxAgeSeconds: config.sessionMaxAgeSeconds,
      messages: repos.messages,
      conversations: repos.conversations,
      objects: objects.store,
      clock,
      ids,
      limits: config.realtimeSockets,
      refused: (reason) => metrics.realtimeRefused(reason),
      presenceTimeoutMs: config.presenceTimeoutSeconds * 1_000,
    },
    outbox: createOutboxDeps(database, {
      ...delivery,
      clock,
      logger,
      tracing,
      observe: (outcome) => outboxMetrics.observe(outcome),
    }),
    probes: [{ name: "database", check: () => database.ping() }, schemaProbe(database)],
    realtimeFanOut,
    async close() {
      await adapters.close();
      await broker?.close();
      await readLimits.close();
      await sessionActivity.close();
      if (ownsDatabase) {
        await database.close();
      }
      // Last: the spans of everything above are sent.
      await tracing?.shutdown();
    },
  };
};
