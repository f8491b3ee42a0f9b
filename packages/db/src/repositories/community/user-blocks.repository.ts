import type { BlockRepository } from "@agora/domain/community/community.ports";
import type { PrismaClient } from "../../generated/prisma/client";
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

/** Blocks are written through Prisma (rare); the either-way check, on the chat path, is raw SQL. */
export const createBlockRepository = (prisma: PrismaClient, db: SqlExecutor): BlockRepository => ({
  async block(blockerId, blockedId, at) {
    await prisma.userBlock.createMany({
      data: [{ blockerId, blockedId, createdAt: at }],
      skipDuplicates: true,
    });
  },

  async unblock(blockerId, blockedId) {
    await prisma.userBlock.deleteMany({ where: { blockerId, blockedId } });
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
