import type { OwnContentRepository } from "@agora/domain/community/own-content.ports";
import { idParam } from "../../ids";
import type { SqlExecutor } from "../../sql";

type CounterRow = { like_count: number; view_count: number; comment_count: number };

/**
 * A user's like taken back, and its counter, in one statement: the counter moves only when a like
 * row was deleted, so parallel likes and unlikes of one user keep it equal to the rows (a like and
 * an unlike of the same row wait for each other on its lock; the counter on the moment's row).
 */
const unlikeSql = `WITH removed AS (
     DELETE FROM moment_likes WHERE moment_id = $1 AND user_id = $2::uuid
     RETURNING moment_id
   ), moved AS (
     UPDATE moments SET like_count = like_count - 1
      WHERE id IN (SELECT moment_id FROM removed)
     RETURNING like_count, view_count, comment_count
   )
   SELECT like_count, view_count, comment_count FROM moved
   UNION ALL
   SELECT like_count, view_count, comment_count FROM moments
    WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM removed)`;

/** An author's edits and deletions of their moments and comments, in raw SQL (docs/safety.md). */
export const createOwnContentRepository = (db: SqlExecutor): OwnContentRepository => ({
  async lockMoment(id) {
    const { rows } = await db.query<{ id: string; author_id: string; body: string | null }>(
      "SELECT id, author_id, body FROM moments WHERE id = $1 FOR UPDATE",
      [idParam(id)],
      "moments_lock_for_edit",
    );
    const row = rows[0];

    return row ? { id: row.id, authorId: row.author_id, body: row.body } : null;
  },

  async updateMomentBody(id, body, at, hold) {
    await db.query(
      `UPDATE moments SET body = $2, edited_at = $3, held_at = CASE WHEN $4 THEN COALESCE(held_at, $3) ELSE held_at END
        WHERE id = $1`,
      [id, body, at, hold],
      "moments_edit",
    );
  },

  async deleteMoment(id) {
    // Its media leave the public at once and are left to the orphan purge (docs/media.md, "Orphans").
    await db.query(
      `UPDATE media_assets SET attached_at = NULL, visibility = 'private'
        WHERE id IN (SELECT media_asset_id FROM moment_media WHERE moment_id = $1)`,
      [idParam(id)],
      "media_assets_moment_detach",
    );
    // Its comments first, then the moment: each waits for an edit of its row in flight to commit,
    // so the edits are deleted by a later statement, which sees the texts those edits kept.
    const { rows: comments } = await db.query<{ id: string }>(
      "DELETE FROM moment_comments WHERE moment_id = $1 RETURNING id",
      [idParam(id)],
      "moment_comments_moment_delete",
    );
    // Media links, likes, views and legacy moment_reports go with it (ON DELETE CASCADE).
    const { rowCount } = await db.query("DELETE FROM moments WHERE id = $1", [idParam(id)], "moments_delete");
    await db.query(
      `DELETE FROM content_edits
        WHERE (target_type = 'moment' AND target_id = $1)
           OR (target_type = 'comment' AND target_id = ANY($2::uuid[]))`,
      [idParam(id), comments.map((comment) => comment.id)],
      "content_edits_moment_delete",
    );

    return rowCount > 0;
  },

  async findComment(id, options) {
    const { rows } = await db.query<{
      id: string;
      moment_id: string;
      author_id: string;
      moment_author_id: string;
      body: string;
      author_active: boolean;
    }>(
      `SELECT c.id, c.moment_id, c.author_id, m.author_id AS moment_author_id, c.body,
              author_present(u.status) AS author_active
         FROM moment_comments c
         JOIN moments m ON m.id = c.moment_id
         JOIN users u ON u.id = c.author_id
        WHERE c.id = $1${options?.lock ? " FOR UPDATE OF c" : ""}`,
      [idParam(id)],
      options?.lock ? "moment_comments_lock_for_edit" : "moment_comments_facts",
    );
    const row = rows[0];

    return row
      ? {
          id: row.id,
          momentId: row.moment_id,
          authorId: row.author_id,
          momentAuthorId: row.moment_author_id,
          body: row.body,
          authorActive: row.author_active,
        }
      : null;
  },

  async updateCommentBody(id, body, at, hold) {
    await db.query(
      `UPDATE moment_comments
          SET body = $2, edited_at = $3, held_at = CASE WHEN $4 THEN COALESCE(held_at, $3) ELSE held_at END
        WHERE id = $1`,
      [id, body, at, hold],
      "moment_comments_edit",
    );
  },

  async deleteComment(id) {
    const { rows } = await db.query<{ deleted: number }>(
      `WITH gone AS (
         DELETE FROM moment_comments WHERE id = $1 RETURNING moment_id
       ), counted AS (
         UPDATE moments m SET comment_count = GREATEST(m.comment_count - 1, 0)
           FROM gone WHERE m.id = gone.moment_id
       )
       SELECT count(*)::int AS deleted FROM gone`,
      [idParam(id)],
      "moment_comments_delete",
    );
    const deleted = (rows[0]?.deleted ?? 0) > 0;
    if (deleted) {
      // A statement of its own: the deletion may have waited for an edit in flight, whose kept text
      // this later snapshot sees.
      await db.query(
        "DELETE FROM content_edits WHERE target_type = 'comment' AND target_id = $1",
        [idParam(id)],
        "content_edits_comment_delete",
      );
    }

    return deleted;
  },

  async recordEdit(edit) {
    await db.query(
      `INSERT INTO content_edits (id, target_type, target_id, author_id, body, edited_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [edit.id, edit.targetType, edit.targetId, edit.authorId, edit.body, edit.editedAt],
      "content_edits_create",
    );
  },

  async unlike(momentId, userId) {
    const { rows } = await db.query<CounterRow>(unlikeSql, [idParam(momentId), userId], "moments_unlike");
    const row = rows[0];

    return row ? { likes: row.like_count, views: row.view_count, comments: row.comment_count } : null;
  },
});
