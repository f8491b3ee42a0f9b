import { fileURLToPath } from "node:url";
import { uuidV7Ids } from "@agora/domain/shared/ids";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/client";
import {
  loadMigrations,
  type Migration,
  MigrationChecksumError,
  migrate,
  migrationLevel,
  readMigrations,
} from "../src/migrator";
import { seedCatalog } from "../src/seed";
import { createTestDatabase, onPostgres, type TestDatabase } from "./databases";
import { parseSchema } from "./prisma-schema";

describe("migrator", () => {
  let target: TestDatabase;

  beforeAll(async () => {
    target = await createTestDatabase({ migrated: false });
  });
  afterAll(async () => {
    await target?.dispose();
  });

  it("bundles exactly the migrations of prisma/migrations (the build is not stale)", () => {
    const onDisk = readMigrations(fileURLToPath(new URL("../prisma/migrations", import.meta.url)));
    expect(loadMigrations()).toEqual(onDisk);
    expect(onDisk.length).toBeGreaterThan(0);
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

describe.skipIf(!onPostgres)("migrator on PostgreSQL (needs separate connections; skipped on PGlite)", () => {
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
      const alter: Migration = {
        name: "20990101000000_alter_orders",
        sql: 'ALTER TABLE "orders" ADD COLUMN "channel" TEXT',
        checksum: "0".repeat(64),
      };
      const started = Date.now();
      await expect(
        migrate(target.db.sql, [...loadMigrations(), alter], { lockTimeoutMs: lockWaitMs }),
      ).rejects.toMatchObject({ code: "55P03" });
      expect(Date.now() - started).toBeLessThan(lockWaitMs + 4_000);
      expect((await migrationLevel(target.db.sql, [...loadMigrations(), alter])).pending).toEqual([
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
