import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Database, openDatabase } from "../src/client";
import { migrate } from "../src/migrator";

/** PostgreSQL server the tests may create databases on; unset = PGlite in memory. */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;
export const onPostgres = testDatabaseUrl !== undefined;

export type TestDatabase = {
  db: Database;
  /** Connection URL when on PostgreSQL (for a second process or pool). */
  url: string | undefined;
  dispose(): Promise<void>;
};

const withAdmin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

const urlFor = (name: string): string => {
  const url = new URL(testDatabaseUrl ?? "");
  url.pathname = `/${name}`;

  return url.toString();
};

/** A new, empty PostgreSQL database on the test server (dropped by `dispose`). */
export const createEmptyPostgresDatabase = async (): Promise<{ url: string; drop(): Promise<void> }> => {
  const base = new URL(testDatabaseUrl ?? "").pathname.slice(1) || "agora";
  const name = `${base}_t_${randomBytes(5).toString("hex")}`;
  await withAdmin((client) => client.query(`CREATE DATABASE "${name}"`));

  return {
    url: urlFor(name),
    drop: () =>
      withAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
  };
};

/**
 * A fresh database for one test file: a new database on the PostgreSQL server of
 * TEST_DATABASE_URL, or an in-memory PGlite. Migrated unless `migrated: false`.
 */
export const createTestDatabase = async (
  options: { migrated?: boolean; poolMax?: number } = {},
): Promise<TestDatabase> => {
  const migrated = options.migrated ?? true;
  if (!onPostgres) {
    const db = await openDatabase({ dataDir: "memory://" });
    if (migrated) {
      await migrate(db.sql);
    }

    return { db, url: undefined, dispose: () => db.close() };
  }
  const target = await createEmptyPostgresDatabase();
  const db = await openDatabase({
    url: target.url,
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
