import type { CommentRepository } from "@agora/domain/community/community.ports";
import type { Comment } from "@agora/domain/community/community.types";
import type { MomentComment } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";
import { commentVisibleToSql } from "./moment-queries";
import { notMutedSql } from "./user-mutes.repository";

type CommentRow = RowOf<MomentComment> & { author_username: string; author_display_name: string };

const commentSelect = `SELECT c.id, c.moment_id, c.author_id, u.username::text AS author_username,
                              u.display_name AS author_display_name, c.body, c.created_at, c.edited_at
                         FROM moment_comments c
                         JOIN users u ON u.id = c.author_id`;

const toComment = (row: CommentRow): Comment => ({
  id: row.id,
  momentId: row.moment_id,
  author: { id: row.author_id, username: row.author_username, displayName: row.author_display_name },
  body: row.body,
  createdAt: row.created_at,
  editedAt: row.edited_at,
});

/** Comments in raw SQL: written with the moment's counter; lists with blocks applied. */
export const createCommentRepository = (db: SqlExecutor): CommentRepository => ({
  async create(comment) {
    await db.query(
      `INSERT INTO moment_comments (id, moment_id, author_id, body, created_at, held_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        comment.id,
        comment.momentId,
        comment.authorId,
        comment.body,
        comment.createdAt,
        comment.heldAt ?? null,
      ],
      "moment_comments_create",
    );
    await db.query(
      "UPDATE moments SET comment_count = comment_count + 1 WHERE id = $1",
      [comment.momentId],
      "moment_comments_count",
    );
  },

  async findById(id) {
    const { rows } = await db.query<CommentRow>(`${commentSelect} WHERE c.id = $1`, [idParam(id)]);

    return rows[0] ? toComment(rows[0]) : null;
  },

  async listForViewer(momentId, viewerId, page) {
    // The comment rule (commentVisibleToSql), and not listed to a viewer who mutes its author.
    const visible = `c.moment_id = $1 AND ${commentVisibleToSql("$2::uuid")} AND ${notMutedSql("$2::uuid", "c.author_id")}`;
    const { rows } =
      page.before === undefined
        ? await db.query<CommentRow>(
            `${commentSelect} WHERE ${visible} ORDER BY c.created_at DESC, c.id DESC LIMIT $3`,
            [idParam(momentId), idParam(viewerId), page.limit],
            "moment_comments_list",
          )
        : await db.query<CommentRow>(
            `${commentSelect}
              WHERE ${visible}
                AND (c.created_at, c.id) < ((SELECT b.created_at FROM moment_comments b
                                              WHERE b.id = $4 AND b.moment_id = $1), $4::uuid)
              ORDER BY c.created_at DESC, c.id DESC LIMIT $3`,
            [idParam(momentId), idParam(viewerId), page.limit, idParam(page.before)],
            "moment_comments_list_before",
          );

    return rows.map(toComment);
  },

  async deleteByAuthor(authorId) {
    const { rows } = await db.query<{ deleted: number }>(
      `WITH gone AS (
         DELETE FROM moment_comments WHERE author_id = $1 RETURNING moment_id
       ), counted AS (
         UPDATE moments m SET comment_count = GREATEST(m.comment_count - g.n, 0)
           FROM (SELECT moment_id, count(*)::int AS n FROM gone GROUP BY moment_id) g
          WHERE m.id = g.moment_id
       )
       SELECT count(*)::int AS deleted FROM gone`,
      [idParam(authorId)],
    );

    return rows[0]?.deleted ?? 0;
  },
});
