import type { SqlExecutor } from "./sql";

/**
 * The WHERE clause of an optional-filter query, with its parameters numbered as they are added:
 * `param(value)` returns its placeholder. Used by the admin collections, whose filters come and go.
 */
export const createFilters = (values: unknown[] = []) => {
  const conditions: string[] = [];

  return {
    values,
    param(value: unknown): string {
      values.push(value);

      return `$${values.length}`;
    },
    /** Adds a condition (built with `param`); nothing when `condition` is false or undefined. */
    where(condition: string | false | undefined): void {
      if (condition) {
        conditions.push(condition);
      }
    },
    sql(): string {
      return conditions.length === 0 ? "TRUE" : conditions.join(" AND ");
    },
  };
};

/** ILIKE pattern for a case-insensitive substring match of `text` (its wildcards escaped). */
export const substringPattern = (text: string): string =>
  `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * A page of rows, newest (or oldest) first by `created_at, id` of the table `order.table` names,
 * and how many rows match in all.
 *
 * Without a text search, two statements over the same FROM and WHERE: the count (an index-only
 * scan where the filters allow) and the page (an index walk that stops after `limit` rows). With a
 * text search (`search`), the matching rows can only be found by a bitmap scan with a recheck of
 * every candidate, which costs most of the request: one statement finds them once, counts them,
 * and fetches the full columns of the page's rows only. `matched` replaces the statement that finds
 * them (it selects `id, created_at` of every match, with the filters' parameters) where a kind has
 * a faster path than one WHERE over `from`. `select` may take parameters of its own (`param`),
 * bound to the statement that reads the page.
 */
export const selectPage = async <Row>(
  db: SqlExecutor,
  query: {
    select: string | ((param: (value: unknown) => string) => string);
    from: string;
    order: { table: string; direction: "ASC" | "DESC" };
    filters: ReturnType<typeof createFilters>;
    search?: boolean;
    matched?: string;
  },
  page: { limit: number; offset: number },
): Promise<{ rows: Row[]; total: number }> => {
  const where = query.filters.sql();
  const values = [...query.filters.values];
  const pageValues = [...values];
  const param = (value: unknown) => {
    pageValues.push(value);

    return `$${pageValues.length}`;
  };
  const select = typeof query.select === "string" ? query.select : query.select(param);
  const limit = param(page.limit);
  const offset = param(page.offset);
  const { table, direction } = query.order;
  const orderBy = `${table}.created_at ${direction}, ${table}.id ${direction}`;

  if (query.search) {
    const matched =
      query.matched ?? `SELECT ${table}.id, ${table}.created_at FROM ${query.from} WHERE ${where}`;
    const { rows } = await db.query<Row & { page_total: number }>(
      `WITH matched AS MATERIALIZED (${matched}), page AS (
         SELECT id AS page_id FROM matched ORDER BY created_at ${direction}, id ${direction} LIMIT ${limit} OFFSET ${offset}
       )
       SELECT ${select}, (SELECT count(*)::int FROM matched) AS page_total
         FROM ${query.from} JOIN page ON page.page_id = ${table}.id
        ORDER BY ${orderBy}`,
      pageValues,
    );
    const first = rows[0];
    if (first || page.offset === 0) {
      return {
        rows: rows.map(({ page_total: _total, ...row }) => row as unknown as Row),
        total: first?.page_total ?? 0,
      };
    }
    // Past the last page: no row carries the total, so count alone.
  }
  const [count, found] = await Promise.all([
    db.query<{ total: number }>(
      query.search && query.matched
        ? `SELECT count(*)::int AS total FROM (${query.matched}) AS matched`
        : `SELECT count(*)::int AS total FROM ${query.from} WHERE ${where}`,
      values,
    ),
    query.search
      ? Promise.resolve({ rows: [] as Row[] })
      : db.query<Row>(
          `SELECT ${select} FROM ${query.from} WHERE ${where} ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`,
          pageValues,
        ),
  ]);

  return { rows: found.rows, total: count.rows[0]?.total ?? 0 };
};
