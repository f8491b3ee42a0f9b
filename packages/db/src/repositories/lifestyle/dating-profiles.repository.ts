import type { DatingProfileRepository } from "@agora/domain/lifestyle/lifestyle.ports";
import type { DatingProfile as DatingProfileModel, PrismaClient } from "../../generated/prisma/client";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";
import { notBlockedSql } from "../community/user-blocks.repository";

type BrowseRow = Pick<RowOf<DatingProfileModel>, "user_id" | "bio" | "interests" | "birth_year"> & {
  display_name: string;
};

export const createDatingProfileRepository = (
  prisma: PrismaClient,
  db: SqlExecutor,
): DatingProfileRepository => ({
  async upsert(profile, at) {
    const fields = {
      visible: profile.visible,
      bio: profile.bio,
      interests: profile.interests,
      birthYear: profile.birthYear,
      updatedAt: at,
    };
    const row = await prisma.datingProfile.upsert({
      where: { userId: profile.userId },
      create: { userId: profile.userId, ...fields, createdAt: at },
      update: fields,
    });

    return { ...row };
  },

  async deleteForUser(userId) {
    await prisma.datingProfile.deleteMany({ where: { userId } });
  },

  async browse(viewerId, page) {
    // The visible-profile index gives the order; the user's status and the blocks filter rows.
    const { rows } = await db.query<{ total: number; items: BrowseRow[] | null }>(
      `WITH seen AS (
         SELECT d.user_id, d.created_at
           FROM dating_profiles d JOIN users u ON u.id = d.user_id
          WHERE d.visible AND u.status = 'active' AND d.user_id <> $1
            AND ${notBlockedSql("$1::uuid", "d.user_id")}
       ), page AS (
         SELECT user_id, created_at FROM seen ORDER BY created_at, user_id OFFSET $2 LIMIT $3
       )
       SELECT (SELECT count(*)::int FROM seen) AS total,
              (SELECT json_agg(json_build_object('user_id', d.user_id, 'display_name', u.display_name,
                                                 'bio', d.bio, 'interests', d.interests,
                                                 'birth_year', d.birth_year)
                               ORDER BY page.created_at, page.user_id)
                 FROM page JOIN dating_profiles d ON d.user_id = page.user_id
                 JOIN users u ON u.id = d.user_id) AS items`,
      [viewerId, page.offset, page.limit],
      "dating_profiles_browse",
    );
    const row = rows[0];

    return {
      total: row?.total ?? 0,
      items: (row?.items ?? []).map((item) => ({
        userId: item.user_id,
        displayName: item.display_name,
        bio: item.bio,
        interests: item.interests,
        birthYear: item.birth_year,
      })),
    };
  },
});
