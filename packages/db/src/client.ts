import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { citext } from "@electric-sql/pglite/contrib/citext";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "./generated/prisma/client";
import { createPgliteSql, createPgSql, type Sql } from "./sql";

export type DatabaseOptions = {
  /** PostgreSQL URL; when absent the embedded PGlite database is used. */
  url?: string | undefined;
  /** Where PGlite keeps its files; `memory://` (or undefined with `memory: true`) keeps nothing. */
  dataDir?: string | undefined;
  poolMax?: number | undefined;
  /** Application name reported to PostgreSQL (pg_stat_activity). */
  applicationName?: string | undefined;
};

export type Database = {
  readonly kind: "postgres" | "pglite";
  readonly prisma: PrismaClient;
  readonly sql: Sql;
  /** A cheap round trip, for readiness. */
  ping(): Promise<void>;
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

const connectPostgres = (options: DatabaseOptions & { url: string }): Database => {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolMax ?? 10,
    application_name: options.applicationName ?? "agora",
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  const adapter = new PrismaPg(pool, { statementNameGenerator: (query) => statementName(query.sql) });
  const prisma = new PrismaClient({ adapter });

  return {
    kind: "postgres",
    prisma,
    sql: createPgSql(pool),
    async ping() {
      await pool.query("SELECT 1");
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
};

const connectPglite = async (options: DatabaseOptions): Promise<Database> => {
  const dataDir = options.dataDir ?? "memory://";
  if (!dataDir.startsWith("memory://")) {
    mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
  }
  const db = await PGlite.create(dataDir, { extensions: { citext, pg_trgm } });
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(db) });

  return {
    kind: "pglite",
    prisma,
    sql: createPgliteSql(db),
    async ping() {
      await db.query("SELECT 1");
    },
    async close() {
      await prisma.$disconnect();
      await db.close();
    },
  };
};

/** Opens the configured database: PostgreSQL when a URL is given, embedded PGlite otherwise. */
export const openDatabase = async (options: DatabaseOptions): Promise<Database> =>
  options.url ? connectPostgres({ ...options, url: options.url }) : connectPglite(options);
