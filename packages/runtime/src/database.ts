import type { Config } from "./config";
import type { Tracing } from "./telemetry/tracing";

/**
 * How a process opens the configured database (`openDatabase` in @agora/db takes this): PostgreSQL
 * when DATABASE_URL is set, PGlite under DATA_DIR otherwise, with the configured timeouts (and
 * statement spans when `tracing` is given).
 */
export const databaseOptions = (config: Config, applicationName: string, tracing?: Tracing) => ({
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
  // Every statement becomes a span (inside a request's or a delivery's) when tracing is on.
  tracer: tracing?.query,
});
