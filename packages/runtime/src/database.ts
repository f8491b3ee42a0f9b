import { type Database, openDatabase } from "@agora/db/client";
import type { Config } from "./config";

/** Opens the configured database: PostgreSQL when DATABASE_URL is set, PGlite under DATA_DIR otherwise. */
export const openConfiguredDatabase = (config: Config, applicationName: string): Promise<Database> =>
  openDatabase({
    url: config.databaseUrl,
    dataDir: `${config.dataDir}/pglite`,
    poolMax: config.databasePoolMax,
    applicationName,
    timeouts: {
      acquireMs: config.timeouts.databaseAcquireMs,
      statementMs: config.timeouts.databaseStatementMs,
      idleInTransactionMs: config.timeouts.databaseIdleInTransactionMs,
    },
  });
