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
 * A page of rows and how many match in all, as two statements (the count and the page) over the
 * same FROM and WHERE: simple and exact; the admin collections' indexes serve both. `select` may
 * take parameters of its own (`param`), bound to the page statement only.
 */
export const selectPage = async <Row>(
  db: SqlExecutor,
  query: {
    select: string | ((param: (value: unknown) => string) => string);
    from: string;
    orderBy: string;
    filters: ReturnType<typeof createFilters>;
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
  const [count, found] = await Promise.all([
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${query.from} WHERE ${where}`, values),
    db.query<Row>(
      `SELECT ${select} FROM ${query.from} WHERE ${where} ORDER BY ${query.orderBy} LIMIT ${limit} OFFSET ${offset}`,
      pageValues,
    ),
  ]);

  return { rows: found.rows, total: count.rows[0]?.total ?? 0 };
};
