import pg from "pg";
import { createPgSql, QUERY_TIMEOUT_GRACE_MS } from "../sql";
import { type Database, type DatabaseOptions, DEFAULT_DATABASE_TIMEOUTS } from "./database";
import { prismaLoader, statementName, translatingErrors } from "./prisma-client";
import { routedPool } from "./transaction-routing";

export const connectPostgres = (options: DatabaseOptions & { url: string }): Database => {
  const timeouts = options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS;
  const named = options.preparedStatements !== "unnamed";
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolMax ?? 10,
    application_name: options.applicationName ?? "agora",
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: timeouts.acquireMs,
    // Sent as connection parameters: the server enforces them on every connection of the pool.
    statement_timeout: timeouts.statementMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
    // A server that stops answering without closing the socket (a network partition) must not
    // hold a request forever: the client gives up a little after the server would have.
    query_timeout: timeouts.statementMs + QUERY_TIMEOUT_GRACE_MS,
    keepAlive: true,
  });
  // Every connection has an error listener for its whole life, idle or checked out (pg emits
  // 'error' on a client whose server went away; unheard, that event ends the process). The pool's
  // own listener covers idle clients only, and the pool replaces the ones it loses.
  const ignore = () => {};
  pool.on("connect", (client) => client.on("error", ignore));
  pool.on("error", ignore);
  const loader = prismaLoader(async () => {
    const [{ PrismaClient }, { PrismaPg }] = await Promise.all([
      import("../generated/prisma/client"),
      import("@prisma/adapter-pg"),
    ]);
    // Without a generator the adapter sends Prisma's statements unnamed.
    const adapter = new PrismaPg(
      routedPool(pool, options.tracer),
      named ? { statementNameGenerator: (query) => statementName(query.sql) } : {},
    );

    return translatingErrors(new PrismaClient({ adapter }), options.onConfigurationFault);
  });
  const sql = createPgSql(pool, options.tracer, {
    namedStatements: named,
    onConfigurationFault: options.onConfigurationFault,
  });
  const max = options.poolMax ?? 10;

  return {
    kind: "postgres",
    listenTarget: { kind: "postgres", url: options.listenUrl ?? options.url },
    prisma: loader.prisma,
    sql,
    async ping() {
      await sql.query("SELECT 1");
    },
    poolStats: () => ({
      max,
      inUse: pool.totalCount - pool.idleCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    async close() {
      await loader.disconnect();
      await pool.end();
    },
  };
};
