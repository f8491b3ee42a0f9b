import type { PGlite } from "@electric-sql/pglite";
import type { QueryTracer, Sql } from "../sql";
import type { DatabaseMisconfiguredError } from "../unavailable";
import type { ExtendedPrismaClient } from "./prisma-client";

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
  /**
   * The Prisma client, made at the first call and the same one after (on PostgreSQL; PGlite's is
   * made with the database, pglite.ts says why). The Prisma-backed repositories take this loader and
   * call it in each method, so building them loads nothing (prisma-client.ts, `prismaLoader`).
   */
  readonly prisma: () => Promise<ExtendedPrismaClient>;
  readonly sql: Sql;
  /** A cheap round trip, for readiness. */
  ping(): Promise<void>;
  /** The pool's connections (PostgreSQL); undefined for PGlite, which has one in-process connection. */
  poolStats(): PoolStats | undefined;
  close(): Promise<void>;
};
