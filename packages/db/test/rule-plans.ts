// What the agreement tests of the rules stated once in SQL (listing-visibility, menu-item-orderable,
// session-live) share: the moment they decide at and every kind of expiry against it, the
// statements a repository sends, recorded as it runs them, and their plans as prepared statements
// in a transaction that is rolled back.
import type { Database } from "../src/client";
import type { SqlExecutor } from "../src/sql";

const hour = 3600_000;

/** The moment the agreement tests decide at. */
export const at = new Date(Date.UTC(2030, 5, 1, 12));

/** Every kind of expiry against `at`: none, past, exactly now (expired), later today, in days. */
export const expiries = {
  none: null,
  past: new Date(at.getTime() - 24 * hour),
  now: at,
  today: new Date(at.getTime() + hour),
  later: new Date(at.getTime() + 72 * hour),
};

/** A statement as a repository sent it. */
export type SentStatement = { name: string | undefined; text: string; values: readonly unknown[] };

/** `db` recording every statement sent through it (into `sent`), then running it. */
export const recording = (db: SqlExecutor, sent: SentStatement[]): SqlExecutor => ({
  query(text, values = [], name) {
    sent.push({ name, text, values });

    return db.query(text, values, name);
  },
  exec: (script) => db.exec(script),
});

/** The last statement sent under `name`. */
export const sentNamed = (sent: readonly SentStatement[], name: string): SentStatement => {
  const found = sent.findLast((statement) => statement.name === name);
  if (!found) {
    throw new Error(`no statement ${name} was sent`);
  }

  return found;
};

const literal = (value: unknown): string => {
  if (value === null || value === undefined) {
    return "NULL";
  }
  if (value instanceof Date) {
    return `'${value.toISOString()}'`;
  }
  if (typeof value === "number" || typeof value === "boolean") {
    return String(value);
  }
  if (Array.isArray(value)) {
    return `'{${value.map((item) => `"${String(item)}"`).join(",")}}'`;
  }

  return `'${String(value).replaceAll("'", "''")}'`;
};

export const planModes = ["force_custom_plan", "force_generic_plan"] as const;

/**
 * EXPLAIN (COSTS OFF) of `text` with `values` as a prepared statement, in plan mode `mode`, its
 * parameters of `types` when given (a parameter the text does not use has none otherwise).
 */
export const plan = async (
  tx: SqlExecutor,
  text: string,
  values: readonly unknown[],
  mode: (typeof planModes)[number],
  types?: readonly string[],
): Promise<string> => {
  await tx.exec(`SET LOCAL plan_cache_mode = ${mode}`);
  await tx.exec(`PREPARE rule_plan${types ? `(${types.join(", ")})` : ""} AS ${text}`);
  try {
    const { rows } = await tx.query<{ "QUERY PLAN": string }>(
      `EXPLAIN (COSTS OFF) EXECUTE rule_plan(${values.map(literal).join(", ")})`,
    );

    return rows.map((row) => row["QUERY PLAN"]).join("\n");
  } finally {
    await tx.exec("DEALLOCATE rule_plan");
  }
};

/** The types PostgreSQL gives the parameters of `text`. */
export const parameterTypes = async (tx: SqlExecutor, text: string): Promise<string[]> => {
  await tx.exec(`PREPARE rule_types AS ${text}`);
  try {
    const { rows } = await tx.query<{ types: string[] }>(
      "SELECT parameter_types::text[] AS types FROM pg_prepared_statements WHERE name = 'rule_types'",
    );

    return rows[0]?.types ?? [];
  } finally {
    await tx.exec("DEALLOCATE rule_types");
  }
};

/** Runs `work` in a transaction that is rolled back (what it changed is gone), with its result. */
export const rolledBack = async <T>(db: Database, work: (tx: SqlExecutor) => Promise<T>): Promise<T> => {
  let result: { value: T } | undefined;
  const rollback = new Error("roll back");
  await db.sql
    .transaction(async (tx) => {
      result = { value: await work(tx) };
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) {
        throw error;
      }
    });
  if (!result) {
    throw new Error("the planning transaction returned nothing");
  }

  return result.value;
};
