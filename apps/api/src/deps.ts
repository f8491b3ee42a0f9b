// The composition root: the one place that knows every adapter and wires them together.
import type { Database } from "@agora/db/client";
import { migrate } from "@agora/db/migrator";
import { createRepositories, createUnitOfWork } from "@agora/db/repositories/index";
import { seedCatalog } from "@agora/db/seed";
import type { DeliveryDeps } from "@agora/domain/delivery/delivery.deps";
import type { PushSender } from "@agora/domain/delivery/delivery.ports";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import type { MarketplaceDeps } from "@agora/domain/marketplace/marketplace.deps";
import type { OrdersDeps } from "@agora/domain/orders/orders.deps";
import { type Clock, systemClock } from "@agora/domain/shared/clock";
import { type IdGenerator, uuidV7Ids } from "@agora/domain/shared/ids";
import { createSecretBox } from "@agora/domain/shared/secret-box";
import type { Config } from "@agora/runtime/config";
import { openConfiguredDatabase } from "@agora/runtime/database";
import { createDeliveryDeps } from "@agora/runtime/delivery";
import { createLogger } from "@agora/runtime/logging";
import { type CreatedMailer, createMailer } from "@agora/runtime/mail/create-mailer";
import { createPush } from "@agora/runtime/push/create-push";
import { createArgon2Passwords } from "@agora/runtime/security/argon2-passwords";
import { createJwtAccessTokens } from "@agora/runtime/security/jwt-access-tokens";
import type { Logger } from "pino";
import { createMetrics, type Metrics } from "./http/metrics";
import type { ReadinessProbe } from "./modules/system/system.routes";

export type AppDeps = {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  clock: Clock;
  ids: IdGenerator;
  probes: ReadinessProbe[];
  identity: IdentityDeps;
  delivery: DeliveryDeps;
  marketplace: MarketplaceDeps;
  orders: OrdersDeps;
};

export type Runtime = AppDeps & {
  database: Database;
  mail: CreatedMailer;
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

export const createDeps = async (config: Config, overrides: DepsOverrides = {}): Promise<Runtime> => {
  const logger = overrides.logger ?? createLogger({ level: config.logLevel });
  const database = overrides.database ?? (await openConfiguredDatabase(config, "agora-api"));
  const ownsDatabase = overrides.database === undefined;
  const clock = overrides.clock ?? systemClock;
  const ids = uuidV7Ids;
  const mail = overrides.mail ?? createMailer(config, logger);
  const repos = createRepositories(database.sql, ids);
  const push = overrides.push ? undefined : createPush(config);
  const delivery = createDeliveryDeps({ database, clock, ids, push: overrides.push ?? push?.sender, logger });
  const uow = createUnitOfWork(database.sql, ids);

  const identity: IdentityDeps = {
    uow,
    repos,
    clock,
    ids,
    mailer: mail.mailer,
    passwords: createArgon2Passwords(),
    accessTokens: createJwtAccessTokens(config.tokenSecret, config.accessTokenTtlSeconds),
    settings: {
      codeKey: `${config.tokenSecret}:codes`,
      refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
      refreshReuseGraceSeconds: config.refreshReuseGraceSeconds,
      authRequestsPerIp: config.rateLimitAuthPerIp,
    },
  };

  return {
    config,
    logger,
    metrics: createMetrics(),
    clock,
    ids,
    database,
    mail,
    identity,
    delivery,
    marketplace: { uow, repos, clock, ids },
    orders: {
      uow,
      repos,
      clock,
      ids,
      secrets: createSecretBox(config.tokenSecret, "idempotent-guest-capabilities"),
      settings: { listingPlan: config.listingPlan, paymentInstructions: config.paymentInstructions },
    },
    probes: [{ name: "database", check: () => database.ping() }],
    async close() {
      await mail.close();
      await push?.close();
      if (ownsDatabase) {
        await database.close();
      }
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

/**
 * Delivery for the embedded outbox worker. On PostgreSQL it gets a small pool of its own, so under
 * load its claims and inbox writes do not queue behind requests for the API's connections (that
 * queueing is what turns into delivery lag). PGlite has one connection: it shares it.
 */
export const openEmbeddedWorkerDelivery = async (runtime: Runtime) => {
  if (runtime.database.kind !== "postgres") {
    return { delivery: runtime.delivery, database: runtime.database, close: async () => {} };
  }
  const database = await openConfiguredDatabase(
    { ...runtime.config, databasePoolMax: EMBEDDED_WORKER_POOL_MAX },
    "agora-outbox",
  );
  const delivery = createDeliveryDeps({
    database,
    clock: runtime.clock,
    ids: runtime.ids,
    push: runtime.delivery.push,
    logger: runtime.logger,
  });

  return { delivery, database, close: () => database.close() };
};

/** Connections of the embedded worker's own pool (PostgreSQL). */
export const EMBEDDED_WORKER_POOL_MAX = 3;
