// The migrator: applies prisma/migrations/<timestamp>_<name>/migration.sql in name order, each
// once, recorded in Prisma's `_prisma_migrations` table with the file's checksum (an applied file
// that changed is refused). Every run holds one advisory lock from start to end, on a connection
// of its own (Sql.session), so concurrent migrators (the migrate Job next to a `pnpm start`)
// serialize and the later one finds nothing to do, and sets `lock_timeout`
// (MIGRATION_LOCK_TIMEOUT_MS) once it holds it.
//
// A migration runs inside a transaction: the pending ones are applied together in one, which
// commits all or none. A migration whose FIRST LINE is exactly
//
//   -- agora:no-transaction
//
// runs outside any transaction instead, for statements PostgreSQL refuses in one (CREATE INDEX
// CONCURRENTLY, DROP INDEX CONCURRENTLY): the migrations before it commit first, then its
// statements run one at a time, each committing by itself, then the migrations after it run in a
// transaction of their own. The statements are split at build time by PostgreSQL's own parser
// (scripts/bundle-migrations.mjs, which refuses transaction statements) and carried with the
// migration: no running process loads the parser. Its row in `_prisma_migrations` is written when it starts (started_at)
// and counts the statements done (applied_steps_count); finished_at is set only when the last one
// has succeeded, and a failure is written to `logs`. An unfinished migration is pending: the next
// run starts it again from its first statement (on the same row, checksum rules as for any
// migration: only a finished one is held to its file). So every statement of such a migration
// must be safe to run again after a failure part-way: drop what a failed run may have left before
// creating it (an interrupted CREATE INDEX CONCURRENTLY leaves an INVALID index behind, which
// `DROP INDEX CONCURRENTLY IF EXISTS` removes), IF EXISTS where a failed run may already have
// dropped or renamed something. squawk lints such a migration as running outside a transaction
// (scripts/lint-migrations.mjs). It runs under the migrator's lock_timeout unless it sets its own
// (MIGRATION_LOCK_TIMEOUT_MS). PGlite accepts CONCURRENTLY too (it has one connection, so there is
// nothing to block): the same statements run there unchanged. docs/operations.md, "Migrations
// that are safe under load".
import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { bundledMigrations } from "./generated/migrations";
import type { Sql, SqlExecutor } from "./sql";

export type Migration = {
  name: string;
  sql: string;
  checksum: string;
  /**
   * A no-transaction migration's statements, in order, as the build split them
   * (scripts/bundle-migrations.mjs); absent for one that runs in a transaction.
   */
  statements?: readonly string[];
};

export type MigrateResult = { applied: string[]; alreadyApplied: number };

/** Thrown when an applied migration's file no longer matches what was applied. */
export class MigrationChecksumError extends Error {
  constructor(readonly migrationName: string) {
    super(`migration ${migrationName} was changed after it was applied (checksum mismatch)`);
    this.name = "MigrationChecksumError";
  }
}

/** Thrown before anything is applied when a pending migration cannot be run as it is written. */
export class UnrunnableMigrationError extends Error {
  constructor(
    readonly migrationName: string,
    reason: string,
  ) {
    super(`migration ${migrationName} cannot be run: ${reason}`);
    this.name = "UnrunnableMigrationError";
  }
}

/** The first line of a migration that runs outside a transaction (see the top of this file). */
export const NO_TRANSACTION_MARKER = "-- agora:no-transaction";

/** Whether the migration runs inside a transaction (it does unless its first line is the marker). */
export const runsInTransaction = (migration: Pick<Migration, "sql">): boolean =>
  migration.sql.split("\n", 1)[0]?.trimEnd() !== NO_TRANSACTION_MARKER;

/**
 * The statements of a no-transaction migration, as the build split them. The migrator never
 * splits one itself (that needs PostgreSQL's parser; see the top of this file), so one without
 * them (read from files at run time, say) is refused before anything is applied.
 */
const statementsOf = (migration: Migration): readonly string[] => {
  if (!migration.statements) {
    throw new UnrunnableMigrationError(
      migration.name,
      `it is marked "${NO_TRANSACTION_MARKER}" and was not split into statements (the db package's build splits them: scripts/bundle-migrations.mjs)`,
    );
  }

  return migration.statements;
};

const checksumOf = (sql: string): string => createHash("sha256").update(sql).digest("hex");

/**
 * Reads `<dir>/<timestamp>_<name>/migration.sql` in name order (Prisma's layout), without
 * statements: a no-transaction migration read this way runs only once its statements are added.
 */
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
 * (src/generated/migrations.ts), so applications carry them inside their bundle, with the
 * statements of each no-transaction one.
 */
export const loadMigrations = (): Migration[] =>
  bundledMigrations.map(({ name, sql, statements }) => ({
    name,
    sql,
    checksum: checksumOf(sql),
    ...(statements ? { statements } : {}),
  }));

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
 * migrators' own advisory lock is held). Past it the migration fails and rolls back whole (one
 * outside a transaction stops there, unfinished), to be run again, instead of holding every reader
 * and writer of that table in a queue behind its ALTER (a lock request waits behind a long
 * transaction, and everything after it waits behind the request). squawk's require-lock-timeout
 * rule is off because this sets it (.squawk.toml). A no-transaction migration may set its own for
 * its statements (`SET lock_timeout = 0` before CONCURRENTLY builds, which wait for older
 * transactions while holding up no reader or writer); the next migration has this one again.
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

// One row per migration. An attempt that did not finish (a no-transaction migration that failed
// part-way) is started again on its row; inside a transaction the row is written with the
// migration and rolled back with it.
const UNFINISHED = `migration_name = $1 AND finished_at IS NULL AND rolled_back_at IS NULL`;

const recordStart = (sql: SqlExecutor, migration: Migration) =>
  sql.query(
    `WITH retried AS (
       UPDATE "_prisma_migrations"
          SET checksum = $2, started_at = clock_timestamp(), logs = NULL, applied_steps_count = 0
        WHERE ${UNFINISHED}
       RETURNING id)
     INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
     SELECT $3, $2, $1, clock_timestamp(), 0 WHERE NOT EXISTS (SELECT 1 FROM retried)`,
    [migration.name, migration.checksum, randomUUID()],
  );

const recordSteps = (sql: SqlExecutor, migration: Migration, steps: number) =>
  sql.query(`UPDATE "_prisma_migrations" SET applied_steps_count = $2 WHERE ${UNFINISHED}`, [
    migration.name,
    steps,
  ]);

const recordFinish = (sql: SqlExecutor, migration: Migration, steps: number) =>
  sql.query(
    `UPDATE "_prisma_migrations" SET finished_at = clock_timestamp(), applied_steps_count = $2
      WHERE ${UNFINISHED}`,
    [migration.name, steps],
  );

/**
 * A no-transaction migration (see the top of this file): its row first, committed, then each
 * statement by itself, counted; finished only after the last. A failure is written to the row's
 * `logs` and thrown as it was.
 */
const applyOutsideTransaction = async (
  session: SqlExecutor,
  migration: Migration,
  statements: readonly string[],
) => {
  await recordStart(session, migration);
  try {
    for (const [index, statement] of statements.entries()) {
      await session.exec(statement);
      await recordSteps(session, migration, index + 1);
    }
    await recordFinish(session, migration, statements.length);
  } catch (error) {
    await session
      .query(`UPDATE "_prisma_migrations" SET logs = $2 WHERE ${UNFINISHED}`, [
        migration.name,
        error instanceof Error ? error.message : String(error),
      ])
      // The connection may be what failed; the row stays unfinished either way.
      .catch(() => {});
    throw error;
  }
};

/** Consecutive migrations that run in one transaction, or one that runs outside any. */
type Run = { inTransaction: Migration[] } | { outside: Migration; statements: readonly string[] };

/** The pending migrations as runs, in order; a no-transaction one without statements is refused. */
const runsOf = (pending: Migration[]): Run[] => {
  const runs: Run[] = [];
  for (const migration of pending) {
    const last = runs.at(-1);
    if (!runsInTransaction(migration)) {
      runs.push({ outside: migration, statements: statementsOf(migration) });
    } else if (last && "inTransaction" in last) {
      last.inTransaction.push(migration);
    } else {
      runs.push({ inTransaction: [migration] });
    }
  }

  return runs;
};

/**
 * Takes the migrators' advisory lock for the session (across the transactions and statements of
 * a run), waiting while another migrator holds it. It asks again and again (pg_try_advisory_lock,
 * 50 ms to 1 s apart) instead of waiting in pg_advisory_lock: a statement waiting there is an open
 * transaction, and a CREATE INDEX CONCURRENTLY of the migrator that holds the lock waits for every
 * older transaction to end, so the two would deadlock. The lock conflicts with
 * pg_advisory_xact_lock on the same key, which earlier releases of the migrator take.
 */
const takeMigrationLock = async (session: SqlExecutor) => {
  for (let pauseMs = 50; ; pauseMs = Math.min(pauseMs * 2, 1_000)) {
    const { rows } = await session.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [
      MIGRATION_LOCK_KEY,
    ]);
    if (rows[0]?.locked) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
};

/**
 * Applies pending migrations in name order while holding an advisory lock, so concurrent
 * migrators serialize and the later one finds nothing to do. Refuses to run when an applied
 * migration's file has changed, or when a pending no-transaction migration carries no
 * statements. Idempotent. Consecutive migrations run in one transaction, which a failure rolls back
 * whole; a no-transaction migration runs between two such transactions, statement by statement
 * (see the top of this file). A statement that waits for a lock longer than `lockTimeoutMs`
 * (MIGRATION_LOCK_TIMEOUT_MS) fails the run.
 */
export const migrate = async (
  sql: Sql,
  migrations: Migration[] = loadMigrations(),
  options: MigrateOptions = {},
): Promise<MigrateResult> =>
  sql.session(
    async (session) => {
      await takeMigrationLock(session);
      try {
        // An integer we format ourselves (SET takes no parameter). Set again before each run: a
        // no-transaction migration may set its own for its statements.
        const lockTimeoutMs = Math.max(1, Math.trunc(options.lockTimeoutMs ?? MIGRATION_LOCK_TIMEOUT_MS));
        const setLockTimeout = () => session.exec(`SET lock_timeout = ${lockTimeoutMs}`);
        await setLockTimeout();
        await session.exec(createMigrationsTable);
        const applied = await appliedChecksums(session);

        for (const migration of migrations) {
          const checksum = applied.get(migration.name);
          if (checksum !== undefined && checksum !== migration.checksum) {
            throw new MigrationChecksumError(migration.name);
          }
        }

        const pending = migrations.filter((migration) => !applied.has(migration.name));
        for (const run of runsOf(pending)) {
          await setLockTimeout();
          if ("outside" in run) {
            await applyOutsideTransaction(session, run.outside, run.statements);
          } else {
            await session.transaction(async (tx) => {
              for (const migration of run.inTransaction) {
                await recordStart(tx, migration);
                await tx.exec(migration.sql);
                await recordFinish(tx, migration, 1);
              }
            });
          }
        }

        return { applied: pending.map((migration) => migration.name), alreadyApplied: applied.size };
      } finally {
        // On PostgreSQL the session's connection is closed next, which would release both anyway;
        // PGlite keeps its one connection.
        await session
          .exec(`RESET lock_timeout; SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`)
          .catch(() => {});
      }
    },
    // No statement timeout: a migration (an index on a large table) or the wait for another
    // migrator's lock may take longer than any request-path bound.
    { statementTimeoutMs: 0 },
  );
