import type { BlockRepository } from "@agora/domain/community/community.ports";
import { idParam } from "../../ids";
import type { SqlExecutor } from "../../sql";

/**
 * The one SQL form of the block rule, for the queries that list users' content (feed, comments,
 * dating browse): true unless one of the two users blocks the other. Arguments are SQL
 * expressions (column names or parameters). Served by the primary key and the blocked_id index.
 */
export const notBlockedSql = (userId: string, otherId: string) =>
  `NOT EXISTS (SELECT 1 FROM user_blocks b
                WHERE (b.blocker_id = ${userId} AND b.blocked_id = ${otherId})
                   OR (b.blocker_id = ${otherId} AND b.blocked_id = ${userId}))`;

/** Blocks in raw SQL: the either-way check is on the chat path; a block already there stays as it was. */
export const createBlockRepository = (db: SqlExecutor): BlockRepository => ({
  async block(blockerId, blockedId, at) {
    await db.query(
      `INSERT INTO user_blocks (blocker_id, blocked_id, created_at) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING`,
      [blockerId, blockedId, at],
      "user_blocks_block",
    );
  },

  async unblock(blockerId, blockedId) {
    await db.query(
      "DELETE FROM user_blocks WHERE blocker_id = $1 AND blocked_id = $2",
      [blockerId, blockedId],
      "user_blocks_unblock",
    );
  },

  async isBlockedEitherWay(userId, otherId) {
    const { rows } = await db.query<{ blocked: boolean }>(
      `SELECT NOT ${notBlockedSql("$1::uuid", "$2::uuid")} AS blocked`,
      [idParam(userId), idParam(otherId)],
      "user_blocks_either_way",
    );

    return rows[0]?.blocked ?? false;
  },
});
