import { AsyncLocalStorage } from "node:async_hooks";
import type { PGlite, Transaction as PGliteTransaction } from "@electric-sql/pglite";
import type pg from "pg";
import { DatabaseMisconfiguredError, isConnectionFailure, translateDatabaseError } from "./unavailable";

export type Row = Record<string, unknown>;

export type QueryResult<T> = { rows: T[]; rowCount: number };

/**
 * A raw SQL executor over the same connections Prisma uses. Repositories use it for the hot paths
 * (one statement, no ORM pipeline) and for what Prisma cannot say (locks, `SKIP LOCKED`, CTEs).
 * `name` makes the statement a named prepared statement on PostgreSQL, parsed once per connection.
 */
export interface SqlExecutor {
  query<T = Row>(text: string, params?: readonly unknown[], name?: string): Promise<QueryResult<T>>;
  /** Runs a script of several statements (no parameters). */
  exec(script: string): Promise<void>;
}

/**
 * The connection of the transaction running in the current async context, if any. Prisma's
 * adapter asks it (see client/transaction-routing.ts), so Prisma queries inside a unit of work run in its transaction.
 */
export const openTransaction = new AsyncLocalStorage<{ pg: pg.PoolClient } | { pglite: PGliteTransaction }>();

export type TransactionOptions = {
  /**
   * This transaction's statement timeout, instead of the connection's request-path one: for the
   * few jobs that read a lot on purpose (exports), or 0 for none (migrations). PostgreSQL only;
   * PGlite has no timeouts.
   */
  statementTimeoutMs?: number;
};

export interface Sql extends SqlExecutor {
  readonly dialect: "postgres" | "pglite";
  /**
   * Runs one statement without parameters under its own statement timeout, in one round trip
   * (`SET LOCAL statement_timeout` and the statement as one implicit transaction, so the setting
   * ends with it). For reads that must stay cheap whatever happens (the metrics scrape). PGlite has
   * no timeouts: the statement runs as it is.
   */
  queryBounded<T = Row>(text: string, timeoutMs: number): Promise<QueryResult<T>>;
  /**
   * Runs `work` in one transaction on one connection; rolls back when it throws. When the database
   * is unreachable or the connection breaks, it throws DatabaseUnavailableError (and the server
   * rolls back whatever the transaction had written).
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Runs `work` on one connection of its own, outside any transaction: each statement commits by
   * itself (what `CREATE INDEX CONCURRENTLY` needs), and `session.transaction` runs a group of them
   * as one transaction on the same connection. For the migrator, whose advisory lock is held by the
   * session across several transactions. `statementTimeoutMs` is the session's statement timeout
   * (0 for none), instead of the connection's request-path one.
   *
   * PostgreSQL: a pool connection checked out for `work` alone and closed afterwards, never
   * returned to the pool, so whatever the session set or locked (SET, pg_advisory_lock) ends with
   * it. PGlite: its one connection, shared with everything else in the process (and without
   * timeouts): what `work` sets or locks there, `work` undoes; sessions run one at a time.
   */
  session<T>(work: (session: SqlSession) => Promise<T>, options?: TransactionOptions): Promise<T>;
}

/** Statements on one connection outside any transaction (see `Sql.session`). */
export interface SqlSession extends SqlExecutor {
  /** Runs `work` in one transaction on the session's connection; rolls back when it throws. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
}

/** The client-side bound of a statement: the server's statement_timeout plus this grace. */
export const QUERY_TIMEOUT_GRACE_MS = 5_000;

/**
 * Wraps each statement sent (tracing). Called with the statement's text (parameters never) and
 * its prepared-statement name when it has one; it must call `run` once and return its outcome.
 */
export type QueryTracer = <T>(
  statement: { text: string; name: string | undefined },
  run: () => Promise<T>,
) => Promise<T>;

/** How the pg executors send statements, and whom they tell about a configuration fault. */
export type PgSqlOptions = {
  /**
   * False sends every statement unnamed (parsed on each execution), for a pooler that does not keep
   * prepared statements across transactions; the repositories' names then only name trace spans.
   */
  namedStatements?: boolean;
  /** Called with each DatabaseMisconfiguredError before it is thrown (the process logs the first). */
  onConfigurationFault?: ((error: DatabaseMisconfiguredError) => void) | undefined;
};

/** `error` translated (see translateDatabaseError); a configuration fault is reported first. */
const translated = (error: unknown, options: PgSqlOptions): unknown => {
  const result = translateDatabaseError(error);
  if (result instanceof DatabaseMisconfiguredError) {
    options.onConfigurationFault?.(result);
  }

  return result;
};

/** The executor's methods through `tracer` (unchanged when there is none). */
const traced = <E extends SqlExecutor>(executor: E, tracer: QueryTracer | undefined): E =>
  tracer
    ? {
        ...executor,
        query<T>(text: string, params?: readonly unknown[], name?: string) {
          return tracer({ text, name }, () => executor.query<T>(text, params, name));
        },
        exec: (script: string) => tracer({ text: script, name: undefined }, () => executor.exec(script)),
      }
    : executor;

const pgExecutor = (
  client: pg.Pool | pg.PoolClient,
  options: PgSqlOptions,
  queryTimeoutMs?: number,
): SqlExecutor => ({
  async query<T>(text: string, params: readonly unknown[] = [], name?: string) {
    // pg reads a per-query `query_timeout` that its types do not declare.
    const config: pg.QueryConfig & { query_timeout?: number } = {
      text,
      values: params as unknown[],
      ...(name && options.namedStatements !== false ? { name } : {}),
      ...(queryTimeoutMs === undefined ? {} : { query_timeout: queryTimeoutMs }),
    };
    try {
      const result = await client.query(config);

      return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
    } catch (error) {
      throw translated(error, options);
    }
  },
  async exec(script) {
    try {
      const config: pg.QueryConfig & { query_timeout?: number } = { text: script };
      if (queryTimeoutMs !== undefined) {
        config.query_timeout = queryTimeoutMs;
      }
      await client.query(config);
    } catch (error) {
      throw translated(error, options);
    }
  },
});

// The longest timer Node keeps (about 24.8 days): "no bound" for pg, which reads 0 as "the default".
const NO_QUERY_TIMEOUT_MS = 2 ** 31 - 1;

/** The client-side bound for a transaction's statement timeout (undefined = the connection's). */
const clientBoundOf = (statementTimeoutMs: number | undefined): number | undefined => {
  if (statementTimeoutMs === undefined) {
    return undefined;
  }

  return statementTimeoutMs <= 0
    ? NO_QUERY_TIMEOUT_MS
    : Math.min(NO_QUERY_TIMEOUT_MS, statementTimeoutMs + QUERY_TIMEOUT_GRACE_MS);
};

/** A pool connection, or DatabaseUnavailableError when none comes within the acquire timeout. */
const checkOut = async (pool: pg.Pool, options: PgSqlOptions): Promise<pg.PoolClient> => {
  try {
    return await pool.connect();
  } catch (error) {
    throw translated(error, options);
  }
};

export const createPgSql = (pool: pg.Pool, tracer?: QueryTracer, pgOptions: PgSqlOptions = {}): Sql => ({
  dialect: "postgres",
  ...traced(pgExecutor(pool, pgOptions), tracer),
  async queryBounded<T>(text: string, timeoutMs: number) {
    const ms = Math.max(1, Math.trunc(timeoutMs));
    const config: pg.QueryConfig & { query_timeout?: number } = {
      text: `SET LOCAL statement_timeout = ${ms}; ${text}`,
      query_timeout: ms + QUERY_TIMEOUT_GRACE_MS,
    };
    const run = async () => {
      try {
        // Two statements in one simple query: pg answers one result per statement.
        const results = (await pool.query(config)) as unknown as pg.QueryResult[];
        const last = results[results.length - 1];

        return { rows: (last?.rows ?? []) as T[], rowCount: last?.rowCount ?? 0 };
      } catch (error) {
        throw translated(error, pgOptions);
      }
    };

    return tracer ? tracer({ text, name: undefined }, run) : run();
  },
  async transaction(work, options = {}) {
    const client = await checkOut(pool, pgOptions);
    const connection = watch(client);
    const { statementTimeoutMs } = options;
    const tx = traced(pgExecutor(client, pgOptions, clientBoundOf(statementTimeoutMs)), tracer);
    try {
      return await transactionOn(connection, tx, work, statementTimeoutMs);
    } finally {
      connection.stopWatching();
      // A connection that broke (or may still be running a timed-out statement) is destroyed, not
      // returned to the pool.
      client.release(connection.broken || connection.lost !== undefined ? true : undefined);
    }
  },
  async session(work, options = {}) {
    const client = await checkOut(pool, pgOptions);
    const connection = watch(client);
    const { statementTimeoutMs } = options;
    const session = traced(pgExecutor(client, pgOptions, clientBoundOf(statementTimeoutMs)), tracer);
    try {
      if (statementTimeoutMs !== undefined) {
        await session.exec(`SET statement_timeout = ${Math.max(0, Math.trunc(statementTimeoutMs))}`);
      }

      return await work({ ...session, transaction: (inner) => transactionOn(connection, session, inner) });
    } finally {
      connection.stopWatching();
      // Closed, never returned to the pool: the session's settings and locks end with it.
      client.release(true);
    }
  },
});

/** A checked-out client, and what became of its connection. */
type WatchedClient = {
  client: pg.PoolClient;
  /** The 'error' the client emitted (the server closed the connection), if any. */
  lost: unknown;
  /** A transaction on it ended without a clean COMMIT or ROLLBACK: do not reuse it. */
  broken: boolean;
  stopWatching(): void;
};

const watch = (client: pg.PoolClient): WatchedClient => {
  // A checked-out client has no listener of the pool's: without this one, the server closing the
  // connection mid-transaction (a restart) is an unhandled 'error' event that ends the process.
  const onLost = (error: unknown) => {
    watched.lost = error;
  };
  const watched: WatchedClient = {
    client,
    lost: undefined,
    broken: false,
    stopWatching: () => client.off("error", onLost),
  };
  client.on("error", onLost);

  return watched;
};

/** BEGIN, `work`, COMMIT on the connection `tx` runs on; ROLLBACK when anything throws. */
const transactionOn = async <T>(
  connection: WatchedClient,
  tx: SqlExecutor,
  work: (tx: SqlExecutor) => Promise<T>,
  statementTimeoutMs?: number,
): Promise<T> => {
  try {
    await tx.query("BEGIN");
    if (statementTimeoutMs !== undefined) {
      // SET cannot take a parameter; the value is an integer we format ourselves.
      await tx.exec(`SET LOCAL statement_timeout = ${Math.max(0, Math.trunc(statementTimeoutMs))}`);
    }
    const result = await openTransaction.run({ pg: connection.client }, () => work(tx));
    await tx.query("COMMIT");

    return result;
  } catch (error) {
    connection.broken = connection.lost !== undefined || isConnectionFailure(error);
    if (!connection.broken) {
      try {
        await tx.query("ROLLBACK");
      } catch {
        connection.broken = true;
      }
    }
    // A refusal from `work` stays what it was (the server rolled the transaction back either way).
    throw error;
  }
};

const pgliteExecutor = (db: PGlite | PGliteTransaction): SqlExecutor => ({
  async query<T>(text: string, params: readonly unknown[] = []) {
    const result = await db.query<T>(text, params as unknown[]);

    return { rows: result.rows, rowCount: Math.max(result.affectedRows ?? 0, result.rows.length) };
  },
  async exec(script) {
    await db.exec(script);
  },
});

export const createPgliteSql = (db: PGlite, tracer?: QueryTracer): Sql => {
  const executor = traced(pgliteExecutor(db), tracer);
  const transaction = <T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> =>
    db.transaction((tx) =>
      openTransaction.run({ pglite: tx }, () => work(traced(pgliteExecutor(tx), tracer))),
    );
  // Sessions run one at a time: on the one connection they would share their session locks (an
  // advisory lock is re-entrant within a session) and their settings.
  let sessions: Promise<unknown> = Promise.resolve();

  return {
    dialect: "pglite",
    ...executor,
    queryBounded: (text) => executor.query(text),
    transaction,
    session<T>(work: (session: SqlSession) => Promise<T>) {
      // Statements outside a transaction commit by themselves, as on PostgreSQL.
      const run = sessions.then(() => work({ ...executor, transaction }));
      sessions = run.catch(() => {});

      return run;
    },
  };
};
