import type {
  FilterAction,
  FilterContext,
  FilterMatch,
  FilterRule,
} from "@agora/domain/moderation/content-filter";
import { ContentFilterConflictError } from "@agora/domain/moderation/content-filter.errors";
import type {
  ContentFilterRecord,
  ContentFilterRepository,
  ContentFilterSource,
} from "@agora/domain/moderation/content-filter.ports";
import { isUniqueViolation } from "../../errors";
import type { ContentFilter as ContentFilterModel } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";

type Row = RowOf<ContentFilterModel>;

const columns = `id, match, value, normalized_value, action, contexts, hits, last_hit_at, created_by,
  created_at, updated_at`;

const toRecord = (row: Row): ContentFilterRecord => ({
  id: row.id,
  match: row.match as FilterMatch,
  value: row.value,
  normalizedValue: row.normalized_value,
  action: row.action as FilterAction,
  contexts: row.contexts as FilterContext[],
  hits: Number(row.hits),
  lastHitAt: row.last_hit_at,
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const UNIQUE = "content_filters_match_normalized_value_key";

/** Runs a write that may break the rules' uniqueness: 409 conflict when it does. */
const unique = async <T>(write: () => Promise<T>): Promise<T> => {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, UNIQUE)) {
      throw new ContentFilterConflictError();
    }
    throw error;
  }
};

/** The administrators' content filter rules. */
export const createContentFilterRepository = (db: SqlExecutor): ContentFilterRepository => ({
  async findPage({ limit, offset }) {
    const [count, found] = await Promise.all([
      db.query<{ total: number }>("SELECT count(*)::int AS total FROM content_filters"),
      db.query<Row>(`SELECT ${columns} FROM content_filters ORDER BY created_at, id LIMIT $1 OFFSET $2`, [
        limit,
        offset,
      ]),
    ]);

    return { items: found.rows.map(toRecord), total: count.rows[0]?.total ?? 0 };
  },

  async lockById(id) {
    const found = await db.query<Row>(`SELECT ${columns} FROM content_filters WHERE id = $1 FOR UPDATE`, [
      idParam(id),
    ]);
    const row = found.rows[0];

    return row ? toRecord(row) : null;
  },

  create(rule) {
    return unique(async () => {
      const created = await db.query<Row>(
        `INSERT INTO content_filters (id, match, value, normalized_value, action, contexts, created_by,
                                      created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6::text[], $7, $8, $8)
         RETURNING ${columns}`,
        [
          rule.id,
          rule.match,
          rule.value,
          rule.normalizedValue,
          rule.action,
          [...rule.contexts],
          rule.createdBy,
          rule.at,
        ],
      );

      return toRecord(created.rows[0] as Row);
    });
  },

  update(id, change) {
    return unique(async () => {
      const updated = await db.query<Row>(
        `UPDATE content_filters
            SET match = $2, value = $3, normalized_value = $4, action = $5, contexts = $6::text[],
                updated_at = $7
          WHERE id = $1
         RETURNING ${columns}`,
        [
          idParam(id),
          change.match,
          change.value,
          change.normalizedValue,
          change.action,
          [...change.contexts],
          change.at,
        ],
      );
      const row = updated.rows[0];

      return row ? toRecord(row) : null;
    });
  },

  async delete(id) {
    const deleted = await db.query("DELETE FROM content_filters WHERE id = $1", [idParam(id)]);

    return deleted.rowCount > 0;
  },
});

/**
 * What the per-process cache reads (on the pool): the rules' fingerprint (a digest of every rule's
 * id, match, normalized value, action, contexts and update time; hits do not change it), all rules,
 * and the hit counter.
 */
export const createContentFilterSource = (db: SqlExecutor): ContentFilterSource => ({
  async fingerprint() {
    const found = await db.query<{ fingerprint: string }>(
      `SELECT count(*)::text || ':' || coalesce(md5(string_agg(
                id::text || match || normalized_value || action || array_to_string(contexts, ',') ||
                updated_at::text, ';' ORDER BY id)), '') AS fingerprint
         FROM content_filters`,
      [],
      "content_filters_fingerprint",
    );

    return found.rows[0]?.fingerprint ?? "";
  },

  async loadAll() {
    const found = await db.query<
      Pick<Row, "id" | "match" | "value" | "normalized_value" | "action" | "contexts">
    >("SELECT id, match, value, normalized_value, action, contexts FROM content_filters");

    return found.rows.map(
      (row): FilterRule => ({
        id: row.id,
        match: row.match as FilterMatch,
        value: row.value,
        normalizedValue: row.normalized_value,
        action: row.action as FilterAction,
        contexts: row.contexts as FilterContext[],
      }),
    );
  },

  async countHits(ruleIds, at) {
    if (ruleIds.length === 0) {
      return;
    }
    await db.query(
      `UPDATE content_filters SET hits = hits + 1, last_hit_at = greatest(last_hit_at, $2::timestamptz)
        WHERE id = ANY($1::uuid[])`,
      [[...ruleIds], at],
      "content_filters_count_hits",
    );
  },
});
