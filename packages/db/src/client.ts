/**
 * Opening the database. Its concerns live in client/: the types (database.ts), PostgreSQL's pool
 * (postgres.ts), the embedded PGlite and its directory lock (pglite.ts, pglite-lock.ts), routing
 * Prisma's queries into the unit of work's transaction (transaction-routing.ts) and the Prisma
 * client made at first use (prisma-client.ts).
 */
import type { Database, DatabaseOptions } from "./client/database";
import { connectPglite } from "./client/pglite";
import { connectPostgres } from "./client/postgres";

// What callers use; the rest (PoolStats, DEFAULT_DATABASE_TIMEOUTS) is in client/database.ts.
export type { Database, DatabaseOptions, DatabaseTimeouts } from "./client/database";
/** The embedded database's directory lock (backup and restore hold it too). */
export { lockDataDir } from "./client/pglite-lock";

/** Opens the configured database: PostgreSQL when a URL is given, embedded PGlite otherwise. */
export const openDatabase = async (options: DatabaseOptions): Promise<Database> =>
  options.url ? connectPostgres({ ...options, url: options.url }) : connectPglite(options);
