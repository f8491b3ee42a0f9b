import type { MuteRepository } from "@agora/domain/community/own-content.ports";
import { idParam } from "../../ids";
import type { SqlExecutor } from "../../sql";

/**
 * The one SQL form of the mute rule, for the lists of users' content (feed, comments): true unless
 * `viewer` mutes `author` (one direction only: the muted user still sees the muter). An anti join
 * on the primary key (muter_id, muted_id). Arguments are SQL expressions.
 */
export const notMutedSql = (viewer: string, author: string) =>
  `NOT EXISTS (SELECT 1 FROM user_mutes mu WHERE mu.muter_id = ${viewer} AND mu.muted_id = ${author})`;

/** Mutes in raw SQL: a mute already there stays as it was. */
export const createMuteRepository = (db: SqlExecutor): MuteRepository => ({
  async mute(muterId, mutedId, at) {
    await db.query(
      `INSERT INTO user_mutes (muter_id, muted_id, created_at) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING`,
      [muterId, mutedId, at],
      "user_mutes_mute",
    );
  },

  async unmute(muterId, mutedId) {
    await db.query(
      "DELETE FROM user_mutes WHERE muter_id = $1 AND muted_id = $2",
      [muterId, mutedId],
      "user_mutes_unmute",
    );
  },

  async list(muterId, page) {
    // Deleted accounts are left out (they cannot be unmuted: 404, as a block).
    const { rows } = await db.query<{
      id: string;
      username: string;
      display_name: string;
      created_at: Date;
      total: number;
    }>(
      `SELECT u.id, u.username::text AS username, u.display_name, mu.created_at, count(*) OVER ()::int AS total
         FROM user_mutes mu
         JOIN users u ON u.id = mu.muted_id
        WHERE mu.muter_id = $1 AND u.status <> 'deleted'
        ORDER BY mu.created_at DESC, mu.muted_id DESC
        LIMIT $2 OFFSET $3`,
      [idParam(muterId), page.limit, page.offset],
      "user_mutes_list",
    );
    let total = rows[0]?.total;
    if (total === undefined) {
      const counted = await db.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM user_mutes mu JOIN users u ON u.id = mu.muted_id
          WHERE mu.muter_id = $1 AND u.status <> 'deleted'`,
        [idParam(muterId)],
        "user_mutes_count",
      );
      total = counted.rows[0]?.total ?? 0;
    }

    return {
      items: rows.map((row) => ({
        user: { id: row.id, username: row.username, displayName: row.display_name },
        createdAt: row.created_at,
      })),
      total,
    };
  },
});
