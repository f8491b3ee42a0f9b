import type { Config } from "./config";

/**
 * How a process opens the configured database (`openDatabase` in @agora/db takes this): PostgreSQL
 * when DATABASE_URL is set, PGlite under DATA_DIR otherwise, with the configured timeouts.
 */
export const databaseOptions = (config: Config, applicationName: string) => ({
  url: config.databaseUrl,
  listenUrl: config.databaseListenUrl,
  dataDir: `${config.dataDir}/pglite`,
  poolMax: config.databasePoolMax,
  applicationName,
  timeouts: {
    acquireMs: config.timeouts.databaseAcquireMs,
    statementMs: config.timeouts.databaseStatementMs,
    idleInTransactionMs: config.timeouts.databaseIdleInTransactionMs,
  },
});
