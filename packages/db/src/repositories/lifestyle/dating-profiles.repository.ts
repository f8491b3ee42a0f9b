import type { DatingProfileRepository } from "@agora/domain/lifestyle/lifestyle.ports";
import type { DatingProfile as DatingProfileModel } from "../../generated/prisma/client";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";
import { notBlockedSql } from "../community/user-blocks.repository";

type BrowseRow = Pick<RowOf<DatingProfileModel>, "user_id" | "bio" | "interests" | "birth_year"> & {
  display_name: string;
};

type ProfileRow = RowOf<DatingProfileModel>;

/** Dating profiles in raw SQL: browse is a member-facing read on every page. */
export const createDatingProfileRepository = (db: SqlExecutor): DatingProfileRepository => ({
  async upsert(profile, at, hold = false) {
    // One statement: a first save creates the profile, a later one changes it (created_at stays).
    // A hold sets held_at (kept from an earlier hold); a save without one leaves it as it is: only a
    // moderator's approval releases a held profile.
    const { rows } = await db.query<ProfileRow>(
      `INSERT INTO dating_profiles (user_id, visible, bio, interests, birth_year, created_at, updated_at, held_at)
       VALUES ($1, $2, $3, $4::text[], $5, $6, $6, CASE WHEN $7::boolean THEN $6::timestamptz END)
       ON CONFLICT (user_id) DO UPDATE
         SET visible = EXCLUDED.visible, bio = EXCLUDED.bio, interests = EXCLUDED.interests,
             birth_year = EXCLUDED.birth_year, updated_at = EXCLUDED.updated_at,
             held_at = CASE WHEN $7::boolean THEN coalesce(dating_profiles.held_at, EXCLUDED.held_at)
                            ELSE dating_profiles.held_at END
       RETURNING user_id, visible, bio, interests, birth_year, created_at, updated_at`,
      [profile.userId, profile.visible, profile.bio, profile.interests, profile.birthYear, at, hold],
      "dating_profiles_upsert",
    );
    const row = rows[0];
    if (!row) {
      throw new Error(`dating profile of ${profile.userId}: the upsert returned no row`);
    }

    return {
      userId: row.user_id,
      visible: row.visible,
      bio: row.bio,
      interests: row.interests,
      birthYear: row.birth_year,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  },

  async deleteForUser(userId) {
    await db.query(
      "DELETE FROM dating_profiles WHERE user_id = $1",
      [userId],
      "dating_profiles_delete_for_user",
    );
  },

  async browse(viewerId, page) {
    // The visible-profile index gives the order; the author's presence (author_present) and the
    // blocks filter rows.
    const { rows } = await db.query<{ total: number; items: BrowseRow[] | null }>(
      `WITH seen AS (
         SELECT d.user_id, d.created_at
           FROM dating_profiles d JOIN users u ON u.id = d.user_id
          WHERE d.visible AND d.held_at IS NULL AND author_present(u.status) AND d.user_id <> $1
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
