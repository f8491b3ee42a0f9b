import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { PrismaClient } from "./generated/prisma/client";
import {
  createPgliteSql,
  createPgSql,
  openTransaction,
  QUERY_TIMEOUT_GRACE_MS,
  type QueryTracer,
  type Sql,
} from "./sql";
import { DatabaseMisconfiguredError, translateDatabaseError } from "./unavailable";

export type DatabaseOptions = {
  /** PostgreSQL URL; when absent the embedded PGlite database is used. */
  url?: string | undefined;
  /** PostgreSQL: where a LISTEN session connects (`listenTarget`); `url` when absent. */
  listenUrl?: string | undefined;
  /** Where PGlite keeps its files; `memory://` (or undefined with `memory: true`) keeps nothing. */
  dataDir?: string | undefined;
  poolMax?: number | undefined;
  /** Application name reported to PostgreSQL (pg_stat_activity). */
  applicationName?: string | undefined;
  /** PGlite on disk: how long to wait for another process to release the directory. */
  lockWaitMs?: number | undefined;
  /**
   * PGlite: a data directory tarball (`dumpDataDir`) to start from, into an empty `dataDir`
   * (`pnpm agora restore`).
   */
  loadDataDir?: Blob | undefined;
  /** PostgreSQL: the bounds below (PGlite, one in-process connection, has none of them). */
  timeouts?: DatabaseTimeouts | undefined;
  /** Wraps every statement, raw and Prisma's (tracing); none = statements run as they are. */
  tracer?: QueryTracer | undefined;
  /**
   * PostgreSQL: `named` (the default) prepares each distinct statement once per connection;
   * `unnamed` sends every statement, raw and Prisma's, unnamed, for a pooler in transaction mode
   * that does not keep prepared statements (DATABASE_PREPARED_STATEMENTS).
   */
  preparedStatements?: "named" | "unnamed" | undefined;
  /**
   * PostgreSQL: told of each DatabaseMisconfiguredError (a pooler lost or doubled a prepared
   * statement) before it is thrown; the process logs the first one loudly.
   */
  onConfigurationFault?: ((error: DatabaseMisconfiguredError) => void) | undefined;
};

/** A PostgreSQL pool's connections right now (`inUse` = checked out or connecting). */
export type PoolStats = { max: number; inUse: number; idle: number; waiting: number };

/** How long work may wait on PostgreSQL; every bound ends in DatabaseUnavailableError. */
export type DatabaseTimeouts = {
  /** Waiting for a pool connection, connecting included. */
  acquireMs: number;
  /** Per statement (server-side `statement_timeout`; the client gives up a few seconds later). */
  statementMs: number;
  /** A transaction left idle this long is ended by the server (`idle_in_transaction_session_timeout`). */
  idleInTransactionMs: number;
};

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = {
  acquireMs: 5_000,
  statementMs: 5_000,
  idleInTransactionMs: 15_000,
};

export type Database = {
  readonly kind: "postgres" | "pglite";
  /**
   * Where a listener connects (LISTEN needs a session of its own on PostgreSQL; PGlite's
   * notifications stay inside its process).
   */
  readonly listenTarget: { kind: "postgres"; url: string } | { kind: "pglite"; db: PGlite };
  readonly prisma: PrismaClient;
  readonly sql: Sql;
  /** A cheap round trip, for readiness. */
  ping(): Promise<void>;
  /** The pool's connections (PostgreSQL); undefined for PGlite, which has one in-process connection. */
  poolStats(): PoolStats | undefined;
  close(): Promise<void>;
};

// Prepared statements are cached per connection under a name derived from the SQL text, so the
// server parses and plans each distinct statement once per connection instead of per request.
const statementNames = new Map<string, string>();
const statementName = (text: string): string => {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `prisma_${statementNames.size.toString(36)}`;
    statementNames.set(text, name);
  }

  return name;
};

/**
 * The client with Prisma's connection failures translated as the raw executors translate theirs
 * (DatabaseUnavailableError, the wire's 503): the extension changes no query, only what a failed
 * one throws, so the client keeps PrismaClient's type.
 */
const translatingErrors = (
  prisma: PrismaClient,
  onConfigurationFault?: DatabaseOptions["onConfigurationFault"],
): PrismaClient =>
  prisma.$extends({
    query: {
      async $allOperations({ args, query }) {
        try {
          return await query(args);
        } catch (error) {
          const translated = translateDatabaseError(error);
          if (translated instanceof DatabaseMisconfiguredError) {
            onConfigurationFault?.(translated);
          }
          throw translated;
        }
      },
    },
  }) as unknown as PrismaClient;

/**
 * A PrismaClient made at its first use, its modules loaded then too. Loading Prisma's runtime and
 * the generated client measured 2–3 MiB of the API's idle resident memory; constructing a client
 * deserializes Prisma's parameterization graph of the whole schema (measured 8.9 MiB of heap per
 * client); its first query loads and compiles the query compiler. A process whose requests never
 * reach Prisma (a worker, listing reads) or a pool that serves only raw SQL (the embedded worker's)
 * pays none of it.
 *
 * The stand-in answers what the repositories ask of a client: `prisma.<model>.<operation>(args)`
 * and `prisma.$<method>(...)`, each a promise of the real call's result. Prisma's lazy request
 * objects (`$transaction([...])` batches, fluent relation calls) are not supported through it.
 */
const lazyClient = (create: () => Promise<PrismaClient>) => {
  let client: Promise<PrismaClient> | undefined;
  const real = () => {
    client ??= create().catch((error: unknown) => {
      // A failed load (a missing module) is not kept: the next call tries again.
      client = undefined;
      throw error;
    });

    return client;
  };
  type Callable = (...args: unknown[]) => unknown;
  const member = (target: object, name: string): Callable => {
    const value: unknown = Reflect.get(target, name);
    if (typeof value !== "function") {
      throw new TypeError(`the Prisma client has no method ${name}`);
    }

    return (value as Callable).bind(target);
  };
  // Only string names are members; `then` is not, so awaiting a stand-in yields the stand-in.
  const isMember = (property: string | symbol): property is string =>
    typeof property === "string" && property !== "then";
  const delegates = new Map<string, object>();
  const delegate = (model: string) => {
    let found = delegates.get(model);
    if (found === undefined) {
      found = new Proxy(
        {},
        {
          get: (_, operation) =>
            isMember(operation)
              ? (...args: unknown[]) =>
                  real().then((value) => member(Reflect.get(value, model) as object, operation)(...args))
              : undefined,
        },
      );
      delegates.set(model, found);
    }

    return found;
  };
  const prisma = new Proxy({} as PrismaClient, {
    get(_, property) {
      if (!isMember(property)) {
        return undefined;
      }

      return property.startsWith("$")
        ? (...args: unknown[]) => real().then((value) => member(value, property)(...args))
        : delegate(property);
    },
  });

  return {
    prisma,
    /** Disconnects the client if it was ever made (or is being made). */
    disconnect: async () => {
      const made = await client?.catch(() => undefined);
      await made?.$disconnect();
    },
  };
};

const nestedTransaction = () =>
  new Error("a Prisma transaction cannot start inside a unit of work: use the unit of work's repositories");

/**
 * The pool as Prisma's adapter sees it: queries go to the connection of the unit of work running
 * in the current async context (see `openTransaction`), else to the pool. One PrismaClient thus
 * serves both plain reads and repositories inside a transaction (a client per transaction measured
 * about 9 ms to start).
 */
const routedPool = (pool: pg.Pool, tracer: QueryTracer | undefined): pg.Pool => {
  const routed = Object.create(pool) as pg.Pool;
  const connectionOf = () => {
    const open = openTransaction.getStore();

    return open && "pg" in open ? open.pg : pool;
  };
  const send = (...args: Parameters<pg.Pool["query"]>) =>
    (connectionOf().query as (...a: Parameters<pg.Pool["query"]>) => Promise<unknown>)(...args);
  Object.assign(routed, {
    query: tracer
      ? (...args: Parameters<pg.Pool["query"]>) => {
          // Prisma's statement names are generated (prisma_N): they say nothing, so none is passed.
          const first = args[0] as string | { text: string };
          const statement = { text: typeof first === "string" ? first : first.text, name: undefined };

          return tracer(statement, () => send(...args));
        }
      : send,
    connect: () => (openTransaction.getStore() ? Promise.reject(nestedTransaction()) : pool.connect()),
    on: (...args: Parameters<pg.Pool["on"]>) => {
      pool.on(...args);

      return routed;
    },
    removeListener: (...args: Parameters<pg.Pool["removeListener"]>) => {
      pool.removeListener(...args);

      return routed;
    },
  });

  return routed;
};

/** The same routing for PGlite: inside a unit of work, Prisma's queries run on its transaction. */
const routedPglite = (db: PGlite, tracer: QueryTracer | undefined): PGlite => {
  const routed = Object.create(db) as PGlite;
  const connectionOf = () => {
    const open = openTransaction.getStore();

    return open && "pglite" in open ? open.pglite : db;
  };
  const query = (...args: Parameters<PGlite["query"]>) => connectionOf().query(...args);
  const exec = (...args: Parameters<PGlite["exec"]>) => connectionOf().exec(...args);
  Object.assign(routed, {
    query: tracer
      ? (...args: Parameters<PGlite["query"]>) =>
          tracer({ text: args[0], name: undefined }, () => query(...args))
      : query,
    exec: tracer
      ? (...args: Parameters<PGlite["exec"]>) =>
          tracer({ text: args[0], name: undefined }, () => exec(...args))
      : exec,
    transaction: (...args: Parameters<PGlite["transaction"]>) =>
      openTransaction.getStore() ? Promise.reject(nestedTransaction()) : db.transaction(...args),
  });

  return routed;
};

const connectPostgres = (options: DatabaseOptions & { url: string }): Database => {
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
  const lazy = lazyClient(async () => {
    const [{ PrismaClient }, { PrismaPg }] = await Promise.all([
      import("./generated/prisma/client"),
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
    prisma: lazy.prisma,
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
      await lazy.disconnect();
      await pool.end();
    },
  };
};

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);

    return true;
  } catch {
    return false;
  }
};

/**
 * PGlite is one process's database: two processes opening the same directory would each keep
 * their own copy and overwrite the other's. A lock file beside it (holding the owner's pid) makes
 * the second one wait briefly (a restart in watch mode) and then refuse with a clear message.
 */
export const lockDataDir = async (dataDir: string, waitMs: number): Promise<() => void> => {
  const lockFile = `${path.resolve(dataDir)}.lock`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: "wx" });

      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") {
        throw error;
      }
    }
    const holder = Number(readFileSync(lockFile, "utf8"));
    if (!Number.isInteger(holder) || holder === process.pid || !isAlive(holder)) {
      rmSync(lockFile, { force: true });
      continue;
    }
    if (attempt * 100 >= waitMs) {
      throw new Error(
        `the embedded database ${dataDir} is in use by process ${holder} (PGlite serves one process; stop it, or set DATABASE_URL)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

const connectPglite = async (options: DatabaseOptions): Promise<Database> => {
  const dataDir = options.dataDir ?? "memory://";
  let unlock = () => {};
  if (!dataDir.startsWith("memory://")) {
    mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
    unlock = await lockDataDir(dataDir, options.lockWaitMs ?? 5_000);
  }
  // Loaded here, not at the top: a process on PostgreSQL never loads the embedded database's modules.
  const [{ PGlite }, { citext }, { pg_trgm }, { PrismaPGlite }, { PrismaClient }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/citext"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
    import("pglite-prisma-adapter"),
    import("./generated/prisma/client"),
  ]).catch((error: unknown) => {
    unlock();
    throw error;
  });
  const db = await PGlite.create(dataDir, {
    extensions: { citext, pg_trgm },
    // Durability (docs/operations.md §3): PGlite starts PostgreSQL with fsync off, and over Node's
    // file system each commit's WAL is written (to the kernel) before the commit returns, so a
    // `kill -9` of the process loses no acknowledged write; a power loss or kernel crash may lose
    // the last ones. That rests on synchronous_commit staying on (off, commits wait in WAL buffers
    // that single-user PGlite never flushes on its own: the kill -9 test lost every write), so it
    // is pinned on the command line, over postgresql.conf and ALTER SYSTEM.
    startParams: [...PGlite.defaultStartParams, "-c", "synchronous_commit=on"],
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  }).catch((error: unknown) => {
    unlock();
    throw error;
  });
  // Made at once on PGlite (development and tests only): a client first made inside a traced
  // request there left that request's span unexported (telemetry.int.test.ts; not understood yet,
  // the same test passes with PostgreSQL's client made at first use).
  const prisma = translatingErrors(
    new PrismaClient({ adapter: new PrismaPGlite(routedPglite(db, options.tracer)) }),
  );

  return {
    kind: "pglite",
    listenTarget: { kind: "pglite", db },
    prisma,
    sql: createPgliteSql(db, options.tracer),
    async ping() {
      await db.query("SELECT 1");
    },
    poolStats: () => undefined,
    async close() {
      await prisma.$disconnect();
      await db.close();
      unlock();
    },
  };
};

/** Opens the configured database: PostgreSQL when a URL is given, embedded PGlite otherwise. */
export const openDatabase = async (options: DatabaseOptions): Promise<Database> =>
  options.url ? connectPostgres({ ...options, url: options.url }) : connectPglite(options);
