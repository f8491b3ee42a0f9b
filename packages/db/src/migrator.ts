import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { bundledMigrations } from "./generated/migrations";
import type { Sql, SqlExecutor } from "./sql";

export type Migration = { name: string; sql: string; checksum: string };

export type MigrateResult = { applied: string[]; alreadyApplied: number };

/** Thrown when an applied migration's file no longer matches what was applied. */
export class MigrationChecksumError extends Error {
  constructor(readonly migrationName: string) {
    super(`migration ${migrationName} was changed after it was applied (checksum mismatch)`);
    this.name = "MigrationChecksumError";
  }
}

const checksumOf = (sql: string): string => createHash("sha256").update(sql).digest("hex");

/** Reads `<dir>/<timestamp>_<name>/migration.sql` in name order (Prisma's layout). */
export const readMigrations = (dir: string): Migration[] =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");

      return { name, sql, checksum: checksumOf(sql) };
    });

/**
 * The migrations of this build: prisma/migrations as the db package's build bundled them
 * (src/generated/migrations.ts), so applications carry them inside their bundle.
 */
export const loadMigrations = (): Migration[] =>
  bundledMigrations.map(({ name, sql }) => ({ name, sql, checksum: checksumOf(sql) }));

// The same DDL `prisma migrate` uses, so the table stays compatible with Prisma's tooling.
const createMigrationsTable = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

// Any constant shared by every migrating process: they serialize on it.
const MIGRATION_LOCK_KEY = 72_616_701;

/**
 * How long a migration's statement may wait for a table lock (`lock_timeout`, set after the
 * migrators' own advisory lock is held). Past it the migration fails and rolls back whole, to be
 * run again, instead of holding every reader and writer of that table in a queue behind its ALTER
 * (a lock request waits behind a long transaction, and everything after it waits behind the
 * request). squawk's require-lock-timeout rule is off because this sets it (.squawk.toml).
 */
export const MIGRATION_LOCK_TIMEOUT_MS = 5_000;

export type MigrateOptions = { lockTimeoutMs?: number };

const appliedChecksums = async (tx: SqlExecutor): Promise<Map<string, string>> => {
  const { rows } = await tx.query<{ migration_name: string; checksum: string }>(
    `SELECT migration_name, checksum FROM "_prisma_migrations"
     WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );

  return new Map(rows.map((row) => [row.migration_name, row.checksum]));
};

export type MigrationLevel = {
  /** Migrations of this build the database has not applied. */
  pending: string[];
  /** Migrations applied from a different file than this build carries. */
  changed: string[];
};

/**
 * Where the database stands against this build's migrations: two small reads (does the migrations
 * table exist, then its rows, one per migration). A database without the table has applied none.
 * Migrations the database has and this build lacks (a newer release migrated first) are not
 * reported: a rolling deploy runs old code on the new schema, which only adds what old code ignores.
 */
export const migrationLevel = async (
  sql: SqlExecutor,
  migrations: Migration[] = loadMigrations(),
): Promise<MigrationLevel> => {
  const { rows } = await sql.query<{ exists: boolean }>(
    "SELECT to_regclass('\"_prisma_migrations\"') IS NOT NULL AS exists",
    [],
    "migration_level_table",
  );
  const applied = rows[0]?.exists ? await appliedChecksums(sql) : new Map<string, string>();

  return {
    pending: migrations
      .filter((migration) => !applied.has(migration.name))
      .map((migration) => migration.name),
    changed: migrations
      .filter((migration) => {
        const checksum = applied.get(migration.name);

        return checksum !== undefined && checksum !== migration.checksum;
      })
      .map((migration) => migration.name),
  };
};

/**
 * Applies pending migrations in name order inside one transaction that holds an advisory lock,
 * so concurrent migrators serialize and the later one finds nothing to do. Refuses to run when an
 * applied migration's file has changed. Idempotent. A statement that waits for a table lock longer
 * than `lockTimeoutMs` (MIGRATION_LOCK_TIMEOUT_MS) fails the run, which changes nothing.
 */
export const migrate = async (
  sql: Sql,
  migrations: Migration[] = loadMigrations(),
  options: MigrateOptions = {},
): Promise<MigrateResult> =>
  sql.transaction(
    async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
      // An integer we format ourselves (SET takes no parameter).
      const lockTimeoutMs = Math.max(1, Math.trunc(options.lockTimeoutMs ?? MIGRATION_LOCK_TIMEOUT_MS));
      await tx.exec(`SET LOCAL lock_timeout = ${lockTimeoutMs}`);
      await tx.exec(createMigrationsTable);
      const applied = await appliedChecksums(tx);

      for (const migration of migrations) {
        const checksum = applied.get(migration.name);
        if (checksum !== undefined && checksum !== migration.checksum) {
          throw new MigrationChecksumError(migration.name);
        }
      }

      const pending = migrations.filter((migration) => !applied.has(migration.name));
      for (const migration of pending) {
        await tx.exec(migration.sql);
        await tx.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), now(), 1)`,
          [randomUUID(), migration.checksum, migration.name],
        );
      }

      return { applied: pending.map((migration) => migration.name), alreadyApplied: applied.size };
    },
    // No statement timeout: a migration (an index on a large table) or the wait for another
    // migrator's lock may take longer than any request-path bound.
    { statementTimeoutMs: 0 },
  );
