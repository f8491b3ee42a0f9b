// The moment reads, shared by the moments repository and the bench's reference server (which
// runs them verbatim). The feed is the hot path: one statement, served by the
// (created_at DESC, id DESC) index, the block graph's keys and the likes' primary key.
import type { Moment } from "@agora/domain/community/community.types";
import type { Moment as MomentModel } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import { notBlockedSql } from "./user-blocks.repository";
import { notMutedSql } from "./user-mutes.repository";

export type MomentRow = Pick<
  RowOf<MomentModel>,
  | "id"
  | "author_id"
  | "body"
  | "like_count"
  | "view_count"
  | "comment_count"
  | "hidden_at"
  | "held_at"
  | "created_at"
> & {
  edited_at: RowOf<MomentModel>["edited_at"];
  author_username: string;
  author_display_name: string;
  author_active: boolean;
  media_asset_ids: string[];
  liked: boolean;
};

/**
 * A moment with its author, media (in order) and whether `viewer` (a SQL expression) likes it. An
 * asset whose bytes processing rejected after the moment took it is left out for everyone but the
 * author (docs/media.md, "Life of an asset").
 */
export const momentSelectSql = (viewer: string) =>
  `SELECT m.id, m.author_id, u.username::text AS author_username, u.display_name AS author_display_name,
          author_present(u.status) AS author_active,
          m.body, m.like_count, m.view_count, m.comment_count, m.hidden_at, m.held_at, m.created_at, m.edited_at,
          ARRAY(SELECT mm.media_asset_id::text FROM moment_media mm
                  JOIN media_assets a ON a.id = mm.media_asset_id
                 WHERE mm.moment_id = m.id
                   AND (a.processing IS DISTINCT FROM 'rejected' OR m.author_id = ${viewer})
                 ORDER BY mm.position) AS media_asset_ids,
          EXISTS (SELECT 1 FROM moment_likes l WHERE l.moment_id = m.id AND l.user_id = ${viewer}) AS liked
     FROM moments m
     JOIN users u ON u.id = m.author_id`;

export const toMoment = (row: MomentRow): Moment => ({
  id: row.id,
  author: { id: row.author_id, username: row.author_username, displayName: row.author_display_name },
  body: row.body,
  visibility: "public",
  mediaAssetIds: row.media_asset_ids,
  counters: { likes: row.like_count, views: row.view_count, comments: row.comment_count },
  likedByViewer: row.liked,
  hidden: row.hidden_at !== null,
  held: row.held_at !== null,
  authorActive: row.author_active,
  createdAt: row.created_at,
  editedAt: row.edited_at,
});

/**
 * Whether an account's records are visible to others: while it is active (the SQL function
 * author_present, mirrored by authorPresent in identity.policy.ts). A suspended or deleted
 * author's moments, comments, dating profile and public media leave every read by others on the
 * next request, and come back on reactivation; nothing is deleted (docs/safety.md, "Suspension
 * removes an author's presence"). `userId` is a SQL expression.
 */
export const authorPresentSql = (userId: string) =>
  `EXISTS (SELECT 1 FROM users pu WHERE pu.id = ${userId} AND author_present(pu.status))`;

/**
 * The one rule of who sees a moment (`m`, a moments row) in SQL: the SQL function
 * moment_visible_if_unblocked (its author always; anyone else while it is not hidden, nor held by a
 * content filter, and its author is present) over the facts gathered here, and never across a block either way (the block
 * rule's NOT EXISTS beside it, so the planner makes it an anti join: migration
 * 20261210000000_moment_visibility_rule says why). The domain mirrors it with momentVisible
 * (moments.policy.ts). `viewer` is a SQL expression of type uuid.
 */
export const momentVisibleToSql = (viewer: string, m = "m", author?: string) =>
  `moment_visible_if_unblocked(${m}.author_id = ${viewer}, (${m}.hidden_at IS NOT NULL OR ${m}.held_at IS NOT NULL), ${
    // The author's users row, when the statement joins it already: the same fact from that row.
    // Written as EXISTS, the planner may read every active user into a hash per statement (a
    // feed page's cost then grew with the users; docs/performance.md, "Growth curves").
    author === undefined ? authorPresentSql(`${m}.author_id`) : `author_present(${author}.status)`
  })
   AND ${notBlockedSql(viewer, `${m}.author_id`)}`;

/**
 * The one rule of who sees a comment (`c`, a moment_comments row) in SQL, its moment aside: its
 * author always; anyone else while its author is present and no content filter holds it; never
 * across a block either way. `viewer` is a SQL expression of type uuid.
 */
export const commentVisibleToSql = (viewer: string, c = "c") =>
  `(${c}.author_id = ${viewer} OR (${c}.held_at IS NULL AND ${authorPresentSql(`${c}.author_id`)}))
   AND ${notBlockedSql(viewer, `${c}.author_id`)}`;

// Who sees what: the one moment rule (momentVisibleToSql), on the author row the select joins (u),
// less the authors the viewer mutes (the mute rule's anti join on user_mutes' primary key, beside
// the block rule's; a mute is the viewer's own filter, so single reads still answer the moment).
const feedWhere = `${momentVisibleToSql("$1::uuid", "m", "u")}
   AND ${notMutedSql("$1::uuid", "m.author_id")}`;

/**
 * The feed page of `viewerId`: newest first; after `before` (a moment id) when given, through the
 * cursor moment's (created_at, id), which the planner turns into an index condition. The limit is
 * written into the statement, not bound: a prepared statement's generic plan that does not know
 * it estimates a tenth of the table, which is expensive enough to be JIT-compiled on every run.
 */
export const feedStatement = (viewerId: string, page: { before: string | undefined; limit: number }) => {
  const limit = Math.trunc(page.limit);

  return page.before === undefined
    ? {
        name: `moments_feed_${limit}`,
        text: `${momentSelectSql("$1")} WHERE ${feedWhere} ORDER BY m.created_at DESC, m.id DESC LIMIT ${limit}`,
        values: [idParam(viewerId)],
      }
    : {
        name: `moments_feed_before_${limit}`,
        text: `${momentSelectSql("$1")}
                WHERE ${feedWhere}
                  AND (m.created_at, m.id) < ((SELECT c.created_at FROM moments c WHERE c.id = $2), $2::uuid)
                ORDER BY m.created_at DESC, m.id DESC LIMIT ${limit}`,
        values: [idParam(viewerId), idParam(page.before)],
      };
};
