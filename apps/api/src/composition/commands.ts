// What the CLI (cli.ts) and `pnpm start` run against the database besides serving.
import type { Database } from "@agora/db/client";
import { backupEmbeddedDatabase, restoreEmbeddedDatabase } from "@agora/db/embedded-backup";
import { migrate } from "@agora/db/migrator";
import { seedCatalog } from "@agora/db/seed";
import { type IdGenerator, uuidV7Ids } from "@agora/domain/common/ids";
import type { Config } from "@agora/process/config";
import { databaseOptions } from "@agora/process/database";
import { createLogger } from "@agora/process/logging";
import { createDeps, type Runtime } from "../deps";
import { openConfiguredDatabase } from "./database";

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

/** The embedded database's directory (`$DATA_DIR/pglite`), as the server opens it. */
const embeddedDataDir = (config: Config) => databaseOptions(config, "agora-cli").dataDir;

/**
 * `pnpm agora backup <file>`: the embedded database to a tarball (docs/operations.md, "Backups that
 * restore").
 */
export const backupCommand = async (config: Config, file: string) => {
  const dataDir = embeddedDataDir(config);

  return { dataDir, ...(await backupEmbeddedDatabase(dataDir, file)) };
};

/** `pnpm agora restore <file> [--force]`: a tarball into the embedded database's directory. */
export const restoreCommand = async (config: Config, file: string, force: boolean) => {
  const dataDir = embeddedDataDir(config);

  return { dataDir, ...(await restoreEmbeddedDatabase(file, dataDir, { force })) };
};
