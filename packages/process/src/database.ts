import type { Logger } from "pino";
import type { Config } from "./config";
import type { Tracing } from "./telemetry/tracing";

// Once per process, whichever pool meets it first: the fault is the deployment's, not a request's.
let configurationFaultReported = false;

/**
 * Logs a pooler's lost or doubled prepared statement once, loudly, with the setting to change
 * (the error's cause, the driver's first line, names the statement; never the SQL).
 */
/** DATABASE_*, DATA_DIR and the database timeouts: the database's slice of the configuration. */
export type DatabaseConfig = Pick<
  Config,
  "databaseUrl" | "databaseListenUrl" | "dataDir" | "databasePoolMax" | "databasePreparedStatements"
> & {
  timeouts: Pick<
    Config["timeouts"],
    "databaseAcquireMs" | "databaseStatementMs" | "databaseIdleInTransactionMs"
  >;
};

const reportConfigurationFault = (logger: Logger | undefined, config: DatabaseConfig) => (error: Error) => {
  if (configurationFaultReported || !logger) {
    return;
  }
  configurationFaultReported = true;
  logger.fatal(
    {
      err: error,
      database_prepared_statements: config.databasePreparedStatements,
      setting: "DATABASE_PREPARED_STATEMENTS=unnamed",
    },
    "DATABASE CONFIGURATION FAULT: the connection pooler does not keep prepared statements (PgBouncer " +
      "before 1.21 in transaction mode, or a managed pooler): requests answer 503 until " +
      "DATABASE_PREPARED_STATEMENTS=unnamed is set (or the pooler keeps them: PgBouncer 1.21+ with " +
      "max_prepared_statements > 0)",
  );
};

/**
 * How a process opens the configured database (`openDatabase` in @agora/db takes this): PostgreSQL
 * when DATABASE_URL is set, PGlite under DATA_DIR otherwise, with the configured timeouts (and
 * statement spans when `tracing` is given). With `logger`, a configuration fault of the pooler is
 * logged once per process.
 */
export const databaseOptions = (
  config: DatabaseConfig,
  applicationName: string,
  tracing?: Tracing,
  logger?: Logger,
) => ({
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
  preparedStatements: config.databasePreparedStatements,
  onConfigurationFault: reportConfigurationFault(logger, config),
});
