import type { MomentRepository } from "@agora/domain/community/community.ports";
import type { MomentCounters } from "@agora/domain/community/community.types";
import { idParam } from "../../ids";
import type { SqlExecutor } from "../../sql";
import { feedStatement, type MomentRow, momentSelectSql, toMoment } from "./moment-queries";

type CounterRow = { like_count: number; view_count: number; comment_count: number };

const toCounters = (row: CounterRow): MomentCounters => ({
  likes: row.like_count,
  views: row.view_count,
  comments: row.comment_count,
});

/**
 * One user's like or view, once, and its counter, in one statement: the insert is a no-op when
 * the row exists (a parallel duplicate waits for the first and then finds it), and the counter
 * moves only for a new row. Answers the counters after the statement.
 */
const recordOnce = (table: "moment_likes" | "moment_views", counter: "like_count" | "view_count") =>
  `WITH added AS (
     INSERT INTO ${table} (moment_id, user_id, created_at)
     SELECT id, $2::uuid, $3::timestamptz FROM moments WHERE id = $1
     ON CONFLICT (moment_id, user_id) DO NOTHING
     RETURNING moment_id
   ), moved AS (
     UPDATE moments SET ${counter} = ${counter} + 1
      WHERE id IN (SELECT moment_id FROM added)
     RETURNING like_count, view_count, comment_count
   )
   SELECT like_count, view_count, comment_count FROM moved
   UNION ALL
   SELECT like_count, view_count, comment_count FROM moments
    WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM added)`;

const likeSql = recordOnce("moment_likes", "like_count");
const viewSql = recordOnce("moment_views", "view_count");

/** Moments in raw SQL: the feed, the reads and the counted actions are hot. */
export const createMomentRepository = (db: SqlExecutor): MomentRepository => ({
  async create(moment) {
    await db.query(
      "INSERT INTO moments (id, author_id, body, created_at, held_at) VALUES ($1, $2, $3, $4, $5)",
      [moment.id, moment.authorId, moment.body, moment.createdAt, moment.heldAt ?? null],
      "moments_create",
    );
    if (moment.mediaAssetIds.length > 0) {
      // Positions 0, 1, … in the order given.
      await db.query(
        `INSERT INTO moment_media (moment_id, position, media_asset_id)
         SELECT $1, given.position - 1, given.media_asset_id
           FROM unnest($2::uuid[]) WITH ORDINALITY AS given(media_asset_id, position)`,
        [moment.id, [...moment.mediaAssetIds]],
        "moments_create_media",
      );
    }
  },

  async findById(id, viewerId) {
    const { rows } = await db.query<MomentRow>(
      `${momentSelectSql("$2")} WHERE m.id = $1`,
      [idParam(id), idParam(viewerId)],
      "moments_find_by_id",
    );

    return rows[0] ? toMoment(rows[0]) : null;
  },

  async listFeed(viewerId, page) {
    const { name, text, values } = feedStatement(viewerId, page);
    const { rows } = await db.query<MomentRow>(text, values, name);

    return rows.map(toMoment);
  },

  async like(id, userId, at) {
    const { rows } = await db.query<CounterRow>(likeSql, [idParam(id), userId, at], "moments_like");

    return rows[0] ? toCounters(rows[0]) : null;
  },

  async view(id, userId, at) {
    const { rows } = await db.query<CounterRow>(viewSql, [idParam(id), userId, at], "moments_view");

    return rows[0] ? toCounters(rows[0]) : null;
  },

  async setHidden(id, hidden) {
    await db.query("UPDATE moments SET hidden_at = $2, hidden_by = $3 WHERE id = $1", [
      idParam(id),
      hidden?.at ?? null,
      hidden?.by ?? null,
    ]);
  },

  async deleteByAuthor(authorId) {
    // Media links, likes, views, comments and reports go with their moment (ON DELETE CASCADE).
    const { rowCount } = await db.query("DELETE FROM moments WHERE author_id = $1", [idParam(authorId)]);

    return rowCount;
  },
});
