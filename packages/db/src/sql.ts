import { AsyncLocalStorage } from "node:async_hooks";
import type { PGlite, Transaction as PGliteTransaction } from "@electric-sql/pglite";
import type pg from "pg";

export type Row = Record<string, unknown>;

export type QueryResult<T> = { rows: T[]; rowCount: number };

/**
 * A raw SQL executor over the same connections Prisma uses. Repositories use it for the hot paths
 * (one statement, no ORM pipeline) and for what Prisma cannot say (locks, `SKIP LOCKED`, CTEs).
 * `name` makes the statement a named prepared statement on PostgreSQL, parsed once per connection.
 */
export interface SqlExecutor {
  query<T = Row>(text: string, params?: readonly unknown[], name?: string): Promise<QueryResult<T>>;
  /** Runs a script of several statements (no parameters). */
  exec(script: string): Promise<void>;
}

/**
 * The connection of the transaction running in the current async context, if any. Prisma's
 * adapter asks it (see client.ts), so Prisma queries inside a unit of work run in its transaction.
 */
export const openTransaction = new AsyncLocalStorage<{ pg: pg.PoolClient } | { pglite: PGliteTransaction }>();

export interface Sql extends SqlExecutor {
  readonly dialect: "postgres" | "pglite";
  /** Runs `work` in one transaction on one connection; rolls back when it throws. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
}

const pgExecutor = (client: pg.Pool | pg.PoolClient): SqlExecutor => ({
  async query<T>(text: string, params: readonly unknown[] = [], name?: string) {
    const result = await client.query({ text, values: params as unknown[], ...(name ? { name } : {}) });

    return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
  },
  async exec(script) {
    await client.query(script);
  },
});

export const createPgSql = (pool: pg.Pool): Sql => ({
  dialect: "postgres",
  ...pgExecutor(pool),
  async transaction(work) {
    const client = await pool.connect();
    let broken = false;
    try {
      await client.query("BEGIN");
      const result = await openTransaction.run({ pg: client }, () => work(pgExecutor(client)));
      await client.query("COMMIT");

      return result;
    } catch (error) {
      try {
        await client.query("ROLLBACK");
      } catch {
        broken = true;
      }
      throw error;
    } finally {
      client.release(broken);
    }
  },
});

const pgliteExecutor = (db: PGlite | PGliteTransaction): SqlExecutor => ({
  async query<T>(text: string, params: readonly unknown[] = []) {
    const result = await db.query<T>(text, params as unknown[]);

    return { rows: result.rows, rowCount: Math.max(result.affectedRows ?? 0, result.rows.length) };
  },
  async exec(script) {
    await db.exec(script);
  },
});

export const createPgliteSql = (db: PGlite): Sql => ({
  dialect: "pglite",
  ...pgliteExecutor(db),
  transaction: (work) =>
    db.transaction((tx) => openTransaction.run({ pglite: tx }, () => work(pgliteExecutor(tx)))),
});
