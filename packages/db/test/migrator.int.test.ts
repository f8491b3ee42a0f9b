import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { uuidV7Ids } from "@agora/domain/common/ids";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleMigrations, bundleModule } from "../scripts/bundle-migrations.mjs";
import { openDatabase } from "../src/client";
import {
  loadMigrations,
  type Migration,
  MigrationChecksumError,
  migrate,
  migrationLevel,
  NO_TRANSACTION_MARKER,
  readMigrations,
  runsInTransaction,
  UnrunnableMigrationError,
} from "../src/migrator";
import { seedCatalog } from "../src/seed";
import type { SqlExecutor } from "../src/sql";
import { createTestDatabase, onPostgres, openTestPool, type TestDatabase } from "./databases";
import { parseSchema } from "./prisma-schema";

const scratch = mkdtempSync(path.join(tmpdir(), "agora-migrations-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A new migrations folder with these files (`<name>/migration.sql`). */
const write = (files: Record<string, string>): string => {
  const dir = mkdtempSync(path.join(scratch, "planted-"));
  for (const [name, sql] of Object.entries(files)) {
    mkdirSync(path.join(dir, name));
    writeFileSync(path.join(dir, name, "migration.sql"), sql);
  }

  return dir;
};

/**
 * Migrations written to a new migrations folder and read back from it as the build bundles them:
 * each no-transaction one with its statements (scripts/bundle-migrations.mjs), or refused.
 */
const plant = async (files: Record<string, string>): Promise<Migration[]> => {
  const dir = write(files);
  const split = new Map((await bundleMigrations(dir)).map((bundled) => [bundled.name, bundled.statements]));

  return readMigrations(dir).map((migration) => {
    const statements = split.get(migration.name);

    return statements ? { ...migration, statements } : migration;
  });
};

type MigrationRow = {
  started_at: Date;
  finished_at: Date | null;
  applied_steps_count: number;
  logs: string | null;
  checksum: string;
};

const rowsOf = async (sql: SqlExecutor, name: string) =>
  (
    await sql.query<MigrationRow>(
      `SELECT started_at, finished_at, applied_steps_count, logs, checksum
         FROM "_prisma_migrations" WHERE migration_name = $1`,
      [name],
    )
  ).rows;

/** The table's indexes by name, with whether each is valid (usable by queries). */
const indexesOf = async (sql: SqlExecutor, table: string) => {
  const { rows } = await sql.query<{ name: string; valid: boolean }>(
    `SELECT c.relname AS name, i.indisvalid AS valid
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = to_regclass($1) ORDER BY 1`,
    [table],
  );

  return Object.fromEntries(rows.map((row) => [row.name, row.valid]));
};

describe("migrator", () => {
  let target: TestDatabase;

  beforeAll(async () => {
    target = await createTestDatabase({ migrated: false });
  });
  afterAll(async () => {
    await target?.dispose();
  });

  it("bundles exactly the migrations of prisma/migrations, each no-transaction one with its statements (the build is not stale)", async () => {
    const dir = fileURLToPath(new URL("../prisma/migrations", import.meta.url));
    const onDisk = readMigrations(dir);
    const bundled = await bundleMigrations(dir);
    // The generated module is what the build writes from the files now, statements included.
    expect(readFileSync(new URL("../src/generated/migrations.ts", import.meta.url), "utf8")).toBe(
      bundleModule(bundled),
    );
    expect(loadMigrations()).toEqual(
      onDisk.map((migration, index) => {
        const statements = bundled[index]?.statements;

        return statements ? { ...migration, statements } : migration;
      }),
    );
    // Statements for exactly the migrations the migrator runs outside a transaction.
    const split = loadMigrations().filter((migration) => migration.statements !== undefined);
    expect(split.map((migration) => migration.name)).toEqual(
      onDisk.filter((migration) => !runsInTransaction(migration)).map((migration) => migration.name),
    );
    expect(split.length).toBeGreaterThan(0);
    expect(split.every((migration) => (migration.statements?.length ?? 0) > 1)).toBe(true);
  });

  it("reports every migration pending on an empty database (no migrations table yet)", async () => {
    expect(await migrationLevel(target.db.sql)).toEqual({
      pending: loadMigrations().map((m) => m.name),
      changed: [],
    });
  });

  it("applies every migration once on an empty database and records name and checksum", async () => {
    const migrations = loadMigrations();
    const first = await migrate(target.db.sql);
    expect(first.applied).toEqual(migrations.map((m) => m.name));

    const { rows } = await target.db.sql.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(rows).toEqual(migrations.map((m) => ({ migration_name: m.name, checksum: m.checksum })));
  });

  it("is idempotent: a second run applies nothing", async () => {
    const again = await migrate(target.db.sql);
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied).toBe(loadMigrations().length);
  });

  it("reports the level: nothing pending once migrated, a changed file, and ignores newer migrations the database has", async () => {
    expect(await migrationLevel(target.db.sql)).toEqual({ pending: [], changed: [] });
    const [first, ...rest] = loadMigrations();
    if (!first) {
      throw new Error("no migrations");
    }
    const later: Migration = { name: "99991231000000_later", sql: "SELECT 1", checksum: "f".repeat(64) };
    expect(
      await migrationLevel(target.db.sql, [{ ...first, checksum: "0".repeat(64) }, ...rest, later]),
    ).toEqual({ pending: [later.name], changed: [first.name] });
    // An older build (fewer migrations than the database has) is at its level.
    expect(await migrationLevel(target.db.sql, rest.slice(0, 1))).toEqual({ pending: [], changed: [] });
  });

  it("refuses to run when an applied migration has changed", async () => {
    const changed: Migration[] = loadMigrations().map((m, i) =>
      i === 0 ? { ...m, sql: `${m.sql}\n-- edited`, checksum: "0".repeat(64) } : m,
    );
    await expect(migrate(target.db.sql, changed)).rejects.toBeInstanceOf(MigrationChecksumError);
  });

  it("rolls back a failing migration entirely and records nothing", async () => {
    const broken: Migration[] = [
      ...loadMigrations(),
      {
        name: "99990101000000_broken",
        sql: "CREATE TABLE drift_probe (id int); SELECT * FROM no_such_table;",
        checksum: "x",
      },
    ];
    await expect(migrate(target.db.sql, broken)).rejects.toThrow();
    const { rows } = await target.db.sql.query<{ present: boolean }>(
      "SELECT to_regclass('drift_probe') IS NOT NULL AS present",
    );
    expect(rows[0]?.present).toBe(false);
    const recorded = await target.db.sql.query(
      `SELECT 1 FROM "_prisma_migrations" WHERE migration_name = $1`,
      ["99990101000000_broken"],
    );
    expect(recorded.rows).toHaveLength(0);
  });

  it("matches schema.prisma: every model and field exists with its type and nullability (drift check)", async () => {
    const models = parseSchema();
    expect(models.length).toBeGreaterThan(0);
    const { rows } = await target.db.sql.query<{
      table_name: string;
      column_name: string;
      is_nullable: "YES" | "NO";
      data_type: string;
    }>(
      `SELECT c.table_name, c.column_name, c.is_nullable,
              format_type(a.atttypid, a.atttypmod) AS data_type
         FROM information_schema.columns c
         JOIN pg_attribute a ON a.attrelid = format('%I.%I', c.table_schema, c.table_name)::regclass
                            AND a.attname = c.column_name
        WHERE c.table_schema = 'public'`,
    );
    const actual = new Map(rows.map((row) => [`${row.table_name}.${row.column_name}`, row]));
    const problems: string[] = [];
    const expectedTables = new Set(models.map((model) => model.table));
    for (const model of models) {
      for (const column of model.columns) {
        const key = `${model.table}.${column.column}`;
        const found = actual.get(key);
        if (!found) {
          problems.push(`${key} (${model.model}.${column.field}) is missing`);
          continue;
        }
        if (found.data_type !== column.dbType) {
          problems.push(`${key} is ${found.data_type}, schema.prisma says ${column.dbType}`);
        }
        if ((found.is_nullable === "YES") !== column.nullable) {
          problems.push(
            `${key} nullable=${found.is_nullable}, schema.prisma says ${column.nullable ? "optional" : "required"}`,
          );
        }
      }
    }
    for (const [key, row] of actual) {
      const model = models.find((m) => m.table === row.table_name);
      if (expectedTables.has(row.table_name) && !model?.columns.some((c) => c.column === row.column_name)) {
        problems.push(`${key} exists in the database but not in schema.prisma`);
      }
      if (!expectedTables.has(row.table_name)) {
        problems.push(`table ${row.table_name} exists in the database but not in schema.prisma`);
      }
    }

    const indexRows = await target.db.sql.query<{
      table_name: string;
      columns: string[];
      is_unique: boolean;
    }>(
      `SELECT t.relname AS table_name, ix.indisunique AS is_unique,
              array_agg(a.attname::text ORDER BY k.ord) AS columns
         FROM pg_index ix
         JOIN pg_class t ON t.oid = ix.indrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = 'public'
         CROSS JOIN LATERAL unnest(ix.indkey) WITH ORDINALITY AS k(attnum, ord)
         JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
        GROUP BY t.relname, ix.indexrelid, ix.indisunique`,
    );
    for (const model of models) {
      for (const index of model.indexes) {
        const exists = indexRows.rows.some(
          (row) =>
            row.table_name === model.table &&
            row.is_unique === index.unique &&
            row.columns.join(",") === index.columns.join(","),
        );
        if (!exists) {
          problems.push(
            `${index.unique ? "unique " : ""}index on ${model.table}(${index.columns.join(", ")}) is missing`,
          );
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("seeds the catalog idempotently", async () => {
    const first = await seedCatalog(target.db.sql, uuidV7Ids);
    expect(first.servicesAdded).toBeGreaterThan(0);
    expect(first.categoriesAdded).toBeGreaterThan(0);
    const second = await seedCatalog(target.db.sql, uuidV7Ids);
    expect(second).toEqual({ servicesAdded: 0, categoriesAdded: 0 });
    const { rows } = await target.db.sql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM categories WHERE active",
    );
    expect(rows[0]?.n).toBe(first.categoriesAdded);
  });
});

describe("migrator: migrations marked to run outside a transaction", () => {
  let target: TestDatabase;

  beforeAll(async () => {
    target = await createTestDatabase();
  });
  afterAll(async () => {
    await target?.dispose();
  });

  it("reads the marker on the first line only", () => {
    expect(runsInTransaction({ sql: `${NO_TRANSACTION_MARKER}\nSELECT 1;` })).toBe(false);
    expect(runsInTransaction({ sql: `${NO_TRANSACTION_MARKER}  \r\nSELECT 1;` })).toBe(false);
    expect(runsInTransaction({ sql: `-- a comment\n${NO_TRANSACTION_MARKER}\nSELECT 1;` })).toBe(true);
    expect(runsInTransaction({ sql: "SELECT 1;" })).toBe(true);
    // The bundled ones: the public listing indexes, rebuilt CONCURRENTLY, the inbox's, the
    // pending-upload index, and chat presence's indexes on chat_connections, built CONCURRENTLY.
    expect(
      loadMigrations()
        .filter((migration) => !runsInTransaction(migration))
        .map((migration) => migration.name),
    ).toEqual([
      "20261203000100_listing_visibility_indexes",
      "20261207000100_inbox_indexes",
      "20261207090000_media_pending_uploads",
      "20261207091000_chat_presence",
    ]);
  });

  it("applies one after the migrations before it committed, statement by statement, then the ones after it, and records it", async () => {
    const planted = await plant({
      "99990101000000_probe_table": `CREATE TABLE nt_probe (id int PRIMARY KEY, v text);
INSERT INTO nt_probe SELECT g, 'v' || g FROM generate_series(1, 500) AS g;`,
      // Semicolons in a comment, a string and a dollar quote are no statement boundary.
      "99990101000100_probe_index": `${NO_TRANSACTION_MARKER}
-- Built CONCURRENTLY; which no transaction allows.
DROP INDEX CONCURRENTLY IF EXISTS nt_probe_v_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS nt_probe_v_idx ON nt_probe (v);
COMMENT ON INDEX nt_probe_v_idx IS 'built; concurrently';
DO $$ BEGIN PERFORM 1; END $$`,
      "99990101000200_probe_column": "ALTER TABLE nt_probe ADD COLUMN w text;",
    });
    const result = await migrate(target.db.sql, [...loadMigrations(), ...planted]);
    expect(result.applied).toEqual(planted.map((migration) => migration.name));
    expect(await indexesOf(target.db.sql, "nt_probe")).toEqual({ nt_probe_pkey: true, nt_probe_v_idx: true });
    const { rows } = await target.db.sql.query<{ comment: string; w: boolean }>(
      `SELECT obj_description('nt_probe_v_idx'::regclass, 'pg_class') AS comment,
              EXISTS (SELECT 1 FROM information_schema.columns
                       WHERE table_name = 'nt_probe' AND column_name = 'w') AS w`,
    );
    expect(rows[0]).toEqual({ comment: "built; concurrently", w: true });

    const [row, ...others] = await rowsOf(target.db.sql, "99990101000100_probe_index");
    expect(others).toEqual([]);
    expect(row).toMatchObject({ applied_steps_count: 4, logs: null, checksum: planted[1]?.checksum });
    expect(row?.finished_at?.getTime()).toBeGreaterThanOrEqual(row?.started_at.getTime() ?? Number.NaN);
    expect(await migrationLevel(target.db.sql, [...loadMigrations(), ...planted])).toEqual({
      pending: [],
      changed: [],
    });
    expect((await migrate(target.db.sql, [...loadMigrations(), ...planted])).applied).toEqual([]);
    // The session's lock and setting do not outlive the run (on PGlite the connection does).
    const { rows: session } = await target.db.sql.query<{ locks: number; lock_timeout: string }>(
      `SELECT (SELECT count(*)::int FROM pg_locks
                 WHERE locktype = 'advisory' AND objid = 72616701 -- the migrators' key
                   AND database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS locks,
              current_setting('lock_timeout') AS lock_timeout`,
    );
    expect(session[0]).toEqual({ locks: 0, lock_timeout: "0" });
  });

  it("leaves a migration that failed part-way started but unfinished (the rest not applied); the rerun starts it over and finishes it", async () => {
    const table = `CREATE TABLE nt_unique (id int PRIMARY KEY, v text);
INSERT INTO nt_unique VALUES (1, 'a'), (2, 'a'), (3, 'b');`;
    // The third statement fails on the duplicate 'a' and, as an interrupted CREATE INDEX
    // CONCURRENTLY does, leaves an INVALID index behind; the second one drops such a leftover.
    const unique = `${NO_TRANSACTION_MARKER}
CREATE INDEX CONCURRENTLY IF NOT EXISTS nt_unique_id_v_idx ON nt_unique (id, v);
DROP INDEX CONCURRENTLY IF EXISTS nt_unique_v_key;
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS nt_unique_v_key ON nt_unique (v);
`;
    const planted = await plant({
      "99990102000000_unique_table": table,
      "99990102000100_unique_index": unique,
      "99990102000200_after": "CREATE TABLE nt_after (id int);",
    });
    const all = [...loadMigrations(), ...planted];
    await expect(migrate(target.db.sql, all)).rejects.toThrow(/duplicate key|could not create unique index/);

    const [failed, ...others] = await rowsOf(target.db.sql, "99990102000100_unique_index");
    expect(others).toEqual([]);
    expect(failed).toMatchObject({ finished_at: null, applied_steps_count: 2 });
    expect(failed?.logs).toMatch(/could not create unique index/);
    expect((await migrationLevel(target.db.sql, all)).pending).toEqual([
      "99990102000100_unique_index",
      "99990102000200_after",
    ]);
    // What ran before the failure stays (no transaction rolls it back), the rest did not run.
    expect(await indexesOf(target.db.sql, "nt_unique")).toEqual({
      nt_unique_id_v_idx: true,
      nt_unique_pkey: true,
      nt_unique_v_key: false,
    });
    expect(await rowsOf(target.db.sql, "99990102000000_unique_table")).toHaveLength(1);
    expect(await rowsOf(target.db.sql, "99990102000200_after")).toEqual([]);

    await target.db.sql.query("DELETE FROM nt_unique WHERE id = 2");
    const rerun = await migrate(target.db.sql, all);
    expect(rerun.applied).toEqual(["99990102000100_unique_index", "99990102000200_after"]);
    expect(await indexesOf(target.db.sql, "nt_unique")).toEqual({
      nt_unique_id_v_idx: true,
      nt_unique_pkey: true,
      nt_unique_v_key: true,
    });
    const [finished, ...again] = await rowsOf(target.db.sql, "99990102000100_unique_index");
    expect(again).toEqual([]);
    expect(finished).toMatchObject({ applied_steps_count: 3, logs: null });
    expect(finished?.finished_at).not.toBeNull();
    expect(finished?.started_at.getTime()).toBeGreaterThan(
      failed?.started_at.getTime() ?? Number.POSITIVE_INFINITY,
    );
    expect(await rowsOf(target.db.sql, "99990102000200_after")).toHaveLength(1);
  });

  it("holds an unfinished migration to no checksum: a corrected file reruns on the same row", async () => {
    const [broken] = await plant({
      "99990103000000_fixable": `${NO_TRANSACTION_MARKER}\nSELECT * FROM nt_missing;`,
    });
    const [fixed] = await plant({ "99990103000000_fixable": `${NO_TRANSACTION_MARKER}\nSELECT 1;` });
    if (!broken || !fixed) {
      throw new Error("nothing planted");
    }
    await expect(migrate(target.db.sql, [...loadMigrations(), broken])).rejects.toThrow(/nt_missing/);
    expect(await migrate(target.db.sql, [...loadMigrations(), fixed])).toMatchObject({
      applied: [fixed.name],
    });
    const rows = await rowsOf(target.db.sql, fixed.name);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.checksum).toBe(fixed.checksum);
    // Once finished, it is held to its file like any other.
    await expect(migrate(target.db.sql, [...loadMigrations(), broken])).rejects.toBeInstanceOf(
      MigrationChecksumError,
    );
  });

  it("runs 20261203000100_listing_visibility_indexes again over what a failed run may leave, ending with the seven indexes", async () => {
    const name = "20261203000100_listing_visibility_indexes";
    const publicIndexes = async () =>
      (
        await target.db.sql.query<{ name: string; valid: boolean; on_rule: boolean }>(
          `SELECT c.relname AS name, i.indisvalid AS valid,
                  pg_get_expr(i.indpred, i.indrelid) LIKE '%listing_public_if_unexpired(%' AS on_rule
             FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
            WHERE i.indrelid = 'listings'::regclass AND c.relname LIKE 'listings\\_public\\_%'
            ORDER BY 1`,
        )
      ).rows;
    const built = await publicIndexes();
    expect(built).toHaveLength(7);
    // A leftover replacement (any definition: step 1 drops it), and an index caught between the
    // drop of the old one and the rename.
    await target.db.sql.exec(
      `CREATE INDEX "listings_public_recent_idx_next" ON "listings" ("id");
       ALTER INDEX "listings_public_expiry_idx" RENAME TO "listings_public_expiry_idx_next"`,
    );
    await target.db.sql.query(
      `UPDATE "_prisma_migrations" SET finished_at = NULL WHERE migration_name = $1`,
      [name],
    );
    expect((await migrate(target.db.sql)).applied).toEqual([name]);
    expect(await publicIndexes()).toEqual(built);
    expect(built.every((index) => index.valid && index.on_rule)).toBe(true);
    expect(await rowsOf(target.db.sql, name)).toHaveLength(1);
  });

  it("splits one at build time, and refuses one that controls transactions or does not parse (the build fails)", async () => {
    const [split] = await plant({
      "99990104000000_split": `${NO_TRANSACTION_MARKER}
-- A comment; with a semicolon.
CREATE TABLE nt_split (v text DEFAULT 'a;b');
DO $$ BEGIN PERFORM 1; END $$;
SELECT 'ü'`,
    });
    expect(split?.statements).toEqual([
      "CREATE TABLE nt_split (v text DEFAULT 'a;b')",
      "DO $$ BEGIN PERFORM 1; END $$",
      "SELECT 'ü'",
    ]);
    for (const [body, reason] of [
      ["BEGIN;\nCREATE TABLE nt_refused (id int);\nCOMMIT;", /controls transactions \(BEGIN, COMMIT/],
      ["CREATE TABEL nt_refused (id int);", /does not parse \(syntax error/],
    ] as const) {
      await expect(plant({ "99990104000100_refused": `${NO_TRANSACTION_MARKER}\n${body}` })).rejects.toThrow(
        reason,
      );
    }
  });

  it("refuses, before applying anything, one that carries no statements (not split by the build)", async () => {
    const unsplit = readMigrations(
      write({
        "99990105000000_first": "CREATE TABLE nt_first (id int);",
        "99990105000100_unsplit": `${NO_TRANSACTION_MARKER}\nCREATE TABLE nt_unsplit (id int);`,
      }),
    );
    const refused = migrate(target.db.sql, [...loadMigrations(), ...unsplit]);
    await expect(refused).rejects.toBeInstanceOf(UnrunnableMigrationError);
    await expect(refused).rejects.toThrow(/was not split into statements/);
    const { rows } = await target.db.sql.query<{ first: boolean; unsplit: boolean }>(
      "SELECT to_regclass('nt_first') IS NOT NULL AS first, to_regclass('nt_unsplit') IS NOT NULL AS unsplit",
    );
    expect(rows[0]).toEqual({ first: false, unsplit: false });
    expect(await rowsOf(target.db.sql, "99990105000100_unsplit")).toEqual([]);
  });
});

describe.skipIf(!onPostgres)("migrator on PostgreSQL (needs separate connections; skipped on PGlite)", () => {
  // The bundled migrations include one outside a transaction (CREATE INDEX CONCURRENTLY, which
  // waits for every older transaction): the migrators waiting for the lock must not be one.
  it("serializes concurrent migrators: each migration is applied exactly once", async () => {
    const target = await createTestDatabase({ migrated: false });
    const others = await Promise.all(
      Array.from({ length: 3 }, () => openDatabase({ url: target.url, poolMax: 2 })),
    );
    try {
      const results = await Promise.all([target.db, ...others].map((db) => migrate(db.sql)));
      const appliedCounts = results.map((result) => result.applied.length);
      expect(appliedCounts.filter((n) => n > 0)).toEqual([loadMigrations().length]);
      const { rows } = await target.db.sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "_prisma_migrations"`,
      );
      expect(rows[0]?.n).toBe(loadMigrations().length);
    } finally {
      await Promise.all(others.map((db) => db.close()));
      await target.dispose();
    }
  });

  it("builds a no-transaction migration's index CONCURRENTLY: while it waits for an older writer, a new writer goes through (a CREATE INDEX in a transaction holds it up)", async () => {
    const target = await createTestDatabase();
    const holder = await openTestPool(target.url, { poolMax: 1 });
    const writer = await openTestPool(target.url, { poolMax: 1 });
    const [table, concurrent, plain] = await plant({
      "99990201000000_busy_table": `CREATE TABLE nt_busy (id int PRIMARY KEY, v text);
INSERT INTO nt_busy SELECT g, 'v' || g FROM generate_series(1, 1000) AS g;`,
      "99990201000100_busy_concurrent": `${NO_TRANSACTION_MARKER}
DROP INDEX CONCURRENTLY IF EXISTS nt_busy_v_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS nt_busy_v_idx ON nt_busy (v);`,
      "99990201000200_busy_plain": "CREATE INDEX nt_busy_v_plain_idx ON nt_busy (v);",
    });
    if (!table || !concurrent || !plain) {
      throw new Error("nothing planted");
    }
    /** Polls `probe` until it answers something other than undefined (10 s at most). */
    const until = async <T>(probe: () => Promise<T | undefined>): Promise<T> => {
      for (const started = Date.now(); Date.now() - started < 10_000; ) {
        const found = await probe();
        if (found !== undefined) {
          return found;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error("timed out");
    };
    const buildProgress = async () =>
      (
        await target.db.sql.query<{ command: string; phase: string }>(
          `SELECT command, phase FROM pg_stat_progress_create_index WHERE relid = 'nt_busy'::regclass`,
        )
      ).rows;
    let written = 0;
    /**
     * Applies `migration` while a writer's transaction, begun before it, is open; once the
     * migration's statement waits for a lock, a new writer inserts a row (1 s at most). What that
     * writer saw, and what the build reported before and after.
     */
    const whileAnOlderWriterIsOpen = async (migration: Migration) => {
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let begun = () => {};
      const hasBegun = new Promise<void>((resolve) => {
        begun = resolve;
      });
      written += 2;
      const older = holder.sql.transaction(async (tx) => {
        await tx.query("INSERT INTO nt_busy VALUES ($1, 'older')", [-written]);
        begun();
        await held;
      });
      await hasBegun;
      const migrating = migrate(target.db.sql, [...loadMigrations(), table, migration], {
        lockTimeoutMs: 20_000,
      });
      try {
        const waitsFor = await until(async () => {
          const { rows } = await target.db.sql.query<{ wait_event: string }>(
            `SELECT wait_event FROM pg_stat_activity
              WHERE datname = current_database() AND pid <> pg_backend_pid()
                AND wait_event_type = 'Lock' AND query LIKE '%INDEX%nt_busy_v%'`,
          );

          return rows[0]?.wait_event;
        });
        const during = await buildProgress();
        const newer = await writer.sql
          .transaction((tx) => tx.query("INSERT INTO nt_busy VALUES ($1, 'newer')", [-written - 1]), {
            statementTimeoutMs: 1_000,
          })
          .then(
            () => "written",
            // A statement timeout arrives as DatabaseUnavailableError; its cause has the SQLSTATE.
            (error: { code?: string; cause?: { code?: string } }) => error.cause?.code ?? error.code,
          );

        return { waitsFor, during, newer, after: await buildProgress() };
      } finally {
        release();
        await older;
        await migrating;
      }
    };
    try {
      await migrate(target.db.sql, [...loadMigrations(), table]);

      // CONCURRENTLY: the build waits for the older writer to finish (its first phase) and blocks
      // no one meanwhile: the newer writer's row goes in, and the build is still waiting after it.
      const waiting = [{ command: "CREATE INDEX CONCURRENTLY", phase: "waiting for writers before build" }];
      expect(await whileAnOlderWriterIsOpen(concurrent)).toEqual({
        waitsFor: "virtualxid",
        during: waiting,
        newer: "written",
        after: waiting,
      });
      // The same index built in a transaction: its SHARE lock request waits behind the older
      // writer, and the newer writer waits behind the request until its statement timeout.
      expect(await whileAnOlderWriterIsOpen(plain)).toMatchObject({ waitsFor: "relation", newer: "57014" });

      expect(await indexesOf(target.db.sql, "nt_busy")).toEqual({
        nt_busy_pkey: true,
        nt_busy_v_idx: true,
        nt_busy_v_plain_idx: true,
      });
      const { rows } = await target.db.sql.query<{ v: string; n: number }>(
        "SELECT v, count(*)::int AS n FROM nt_busy WHERE id < 0 GROUP BY v ORDER BY v",
      );
      expect(rows).toEqual([
        { v: "newer", n: 1 },
        { v: "older", n: 2 },
      ]);
    } finally {
      await holder.close();
      await writer.close();
      await target.dispose();
    }
  });

  it("gives up on a table lock held by a long transaction after the lock timeout, applying nothing", async () => {
    const target = await createTestDatabase();
    const holder = await openDatabase({ url: target.url, poolMax: 1 });
    const lockWaitMs = 300;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    // A long reader: an ALTER needs ACCESS EXCLUSIVE, which waits for this ACCESS SHARE lock.
    const reader = holder.sql.transaction(async (tx) => {
      await tx.query("SELECT count(*) FROM orders");
      locked();
      await held;
    });
    try {
      await isLocked;
      // A migration outside a transaction may set its own lock timeout; the next one has the
      // migrator's again.
      const relaxed: Migration = {
        name: "20981231000000_relaxed",
        sql: `${NO_TRANSACTION_MARKER}\nSET lock_timeout = 0;\nSELECT 1;`,
        checksum: "0".repeat(64),
        statements: ["SET lock_timeout = 0", "SELECT 1"],
      };
      const alter: Migration = {
        name: "20990101000000_alter_orders",
        sql: 'ALTER TABLE "orders" ADD COLUMN "channel" TEXT',
        checksum: "0".repeat(64),
      };
      const started = Date.now();
      await expect(
        migrate(target.db.sql, [...loadMigrations(), relaxed, alter], { lockTimeoutMs: lockWaitMs }),
      ).rejects.toMatchObject({ code: "55P03" });
      expect(Date.now() - started).toBeLessThan(lockWaitMs + 4_000);
      expect((await migrationLevel(target.db.sql, [...loadMigrations(), relaxed, alter])).pending).toEqual([
        alter.name,
      ]);
    } finally {
      release();
      await reader;
      await holder.close();
      await target.dispose();
    }
  });
});
