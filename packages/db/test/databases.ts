import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Database, openDatabase } from "../src/client";
import { migrate } from "../src/migrator";

/** PostgreSQL server the tests may create databases on; unset = PGlite in memory. */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;
export const onPostgres = testDatabaseUrl !== undefined;
/**
 * When TEST_DATABASE_URL is a connection pooler (the PgBouncer test runs suites through one): the
 * server behind it, for what needs a session (creating and dropping databases, LISTEN).
 */
const directDatabaseUrl = process.env.TEST_DATABASE_DIRECT_URL || undefined;
/** `unnamed` when the pooler does not keep prepared statements (DATABASE_PREPARED_STATEMENTS). */
const preparedStatements = process.env.TEST_DATABASE_PREPARED_STATEMENTS === "unnamed" ? "unnamed" : "named";

export type TestDatabase = {
  db: Database;
  /** Connection URL when on PostgreSQL (for a second process or pool). */
  url: string | undefined;
  dispose(): Promise<void>;
};

const withAdmin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: directDatabaseUrl ?? testDatabaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

const urlFor = (name: string, base = testDatabaseUrl): string => {
  const url = new URL(base ?? "");
  url.pathname = `/${name}`;

  return url.toString();
};

/**
 * Another pool on a test database's URL, sending statements as the test run says
 * (TEST_DATABASE_PREPARED_STATEMENTS: a run through a pooler that keeps none sends them unnamed).
 */
export const openTestPool = (url: string | undefined, options: { poolMax?: number } = {}) =>
  openDatabase({ url, preparedStatements, ...options });

/** A new, empty PostgreSQL database on the test server (dropped by `dispose`). */
export const createEmptyPostgresDatabase = async (): Promise<{
  url: string;
  /** The same database on the server itself (TEST_DATABASE_DIRECT_URL), else `url`. */
  directUrl: string;
  drop(): Promise<void>;
}> => {
  const base = new URL(testDatabaseUrl ?? "").pathname.slice(1) || "agora";
  const name = `${base}_t_${randomBytes(5).toString("hex")}`;
  await withAdmin((client) => client.query(`CREATE DATABASE "${name}"`));

  return {
    url: urlFor(name),
    directUrl: urlFor(name, directDatabaseUrl ?? testDatabaseUrl),
    drop: () =>
      withAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
  };
};

/**
 * A fresh database for one test file: a new database on the PostgreSQL server of
 * TEST_DATABASE_URL, or a PGlite in memory (or in `pgliteDataDir`, which the caller removes).
 * Migrated unless `migrated: false`.
 */
export const createTestDatabase = async (
  options: { migrated?: boolean; poolMax?: number; pgliteDataDir?: string } = {},
): Promise<TestDatabase> => {
  const migrated = options.migrated ?? true;
  if (!onPostgres) {
    const db = await openDatabase({ dataDir: options.pgliteDataDir ?? "memory://" });
    if (migrated) {
      await migrate(db.sql);
    }

    return { db, url: undefined, dispose: () => db.close() };
  }
  const target = await createEmptyPostgresDatabase();
  const db = await openDatabase({
    url: target.url,
    listenUrl: target.directUrl,
    preparedStatements,
    poolMax: options.poolMax ?? 20,
    applicationName: "agora-test",
  });
  if (migrated) {
    await migrate(db.sql);
  }

  return {
    db,
    url: target.url,
    async dispose() {
      await db.close();
      await target.drop();
    },
  };
};
