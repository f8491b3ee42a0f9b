import type { MessageRepository } from "@agora/domain/chat/chat.ports";
import type { ReportReason, ReportStatus } from "@agora/domain/community/community.types";
import type { TargetReportRepository } from "@agora/domain/community/reports.ports";
import type {
  ContentEdit,
  ContextMessage,
  ReportCategory,
  ReportTargetType,
  TargetReport,
  TargetState,
} from "@agora/domain/community/reports.types";
import { createFilters, selectPage } from "../../filters";
import type { Report as ReportModel } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";
import { visibleAt } from "../marketplace/listing-queries";
import { commentVisibleToSql, momentVisibleToSql } from "./moment-queries";
import { notBlockedSql } from "./user-blocks.repository";

/**
 * The transaction-scoped lock a decision on one target takes (the moment routes' decisions take
 * the same one): decisions on a target run one at a time. Arguments are SQL expressions (text).
 */
export const lockTargetSql = (type: string, id: string) =>
  `pg_advisory_xact_lock(hashtextextended('report:' || ${type} || ':' || ${id}, 0))`;

type ReportRow = RowOf<ReportModel>;

const toReport = (row: ReportRow): TargetReport => ({
  id: row.id,
  targetType: row.target_type as ReportTargetType,
  targetId: row.target_id,
  targetOwnerId: row.target_owner_id,
  reporterId: row.reporter_id,
  source: row.source as "member" | "filter",
  category: row.category as ReportCategory,
  reason: row.reason as ReportReason,
  note: row.note,
  snapshot: (row.snapshot as Record<string, unknown> | null) ?? null,
  status: row.status as ReportStatus,
  decision: row.decision,
  reviewerId: row.reviewer_id,
  resolutionNote: row.resolution_note,
  reviewedAt: row.reviewed_at,
  resolvedAt: row.resolved_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The owner's names, from users row `u`. */
const ownerJson = "json_build_object('id', u.id, 'username', u.username, 'display_name', u.display_name)";

/**
 * Each target type in SQL: its rows (`from`, the target's row joined to its owner `u`), its key,
 * what it is now as JSON (the moderators' view and the reporter's snapshot), and who may report
 * it (`visibleTo`: `$2` the reporter, `$3` now).
 */
const targets: Record<
  ReportTargetType,
  { from: string; key: string; owner: string; json: string; visibleTo: string }
> = {
  moment: {
    from: "moments m JOIN users u ON u.id = m.author_id",
    key: "m.id",
    owner: "m.author_id",
    json: `json_build_object('body', m.body, 'hidden', m.hidden_at IS NOT NULL, 'held', m.held_at IS NOT NULL,
      'edited_at', m.edited_at, 'created_at', m.created_at,
      'media_asset_ids', ARRAY(SELECT mm.media_asset_id FROM moment_media mm WHERE mm.moment_id = m.id ORDER BY mm.position),
      'owner', ${ownerJson})`,
    visibleTo: momentVisibleToSql("$2::uuid", "m", "u"),
  },
  comment: {
    from: "moment_comments c JOIN moments m ON m.id = c.moment_id JOIN users u ON u.id = c.author_id",
    key: "c.id",
    owner: "c.author_id",
    json: `json_build_object('body', c.body, 'moment_id', c.moment_id, 'held', c.held_at IS NOT NULL,
      'edited_at', c.edited_at, 'created_at', c.created_at, 'owner', ${ownerJson})`,
    // A visible comment on a visible moment: its author present, not held by a filter, no block either way.
    visibleTo: `${momentVisibleToSql("$2::uuid", "m")} AND ${commentVisibleToSql("$2::uuid")}`,
  },
  message: {
    from: "chat_messages msg JOIN conversations cv ON cv.id = msg.conversation_id JOIN users u ON u.id = msg.sender_id",
    key: "msg.id",
    owner: "msg.sender_id",
    json: `json_build_object('body', msg.body, 'message_type', msg.message_type, 'conversation_id', msg.conversation_id,
      'seq', msg.seq, 'held', msg.held_at IS NOT NULL, 'created_at', msg.created_at,
      'media_asset_ids', ARRAY(SELECT mm.media_asset_id FROM message_media mm WHERE mm.message_id = msg.id ORDER BY mm.position),
      'owner', ${ownerJson})`,
    // A message of a conversation the reporter is in (blocks do not hide what was said to them);
    // a held one is its sender's only.
    visibleTo:
      "$2::uuid IN (cv.user_a_id, cv.user_b_id) AND (msg.held_at IS NULL OR msg.sender_id = $2::uuid)",
  },
  user: {
    from: "users u",
    key: "u.id",
    owner: "u.id",
    json: `json_build_object('status', u.status, 'created_at', u.created_at, 'owner', ${ownerJson})`,
    // An account not deleted that has not blocked the reporter (one the reporter blocks can be reported).
    visibleTo: `u.status <> 'deleted'
      AND NOT EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = u.id AND b.blocked_id = $2::uuid)`,
  },
  dating_profile: {
    from: "dating_profiles d JOIN users u ON u.id = d.user_id",
    key: "d.user_id",
    owner: "d.user_id",
    json: `json_build_object('bio', d.bio, 'interests', d.interests, 'birth_year', d.birth_year, 'visible', d.visible,
      'held', d.held_at IS NOT NULL,
      'media_asset_ids', ARRAY(SELECT dm.media_asset_id FROM dating_profile_media dm WHERE dm.user_id = d.user_id ORDER BY dm.position),
      'owner', ${ownerJson})`,
    // A profile the reporter could browse (dating-profiles.repository.ts, browse), or their own.
    visibleTo: `d.user_id = $2::uuid
      OR (d.visible AND d.held_at IS NULL AND author_present(u.status) AND ${notBlockedSql("$2::uuid", "d.user_id")})`,
  },
  listing: {
    from: "listings l JOIN provider_profiles p ON p.id = l.provider_id JOIN users u ON u.id = p.user_id",
    key: "l.id",
    owner: "p.user_id",
    json: `json_build_object('name', l.name, 'description', l.description, 'status', l.status,
      'held', l.held_at IS NOT NULL, 'provider', json_build_object('id', p.id, 'display_name', p.display_name),
      'owner', ${ownerJson})`,
    // A listing the public sees now, or the reporter's own.
    visibleTo: `p.user_id = $2::uuid OR ${visibleAt("$3::timestamptz")}`,
  },
  meeting: {
    from: "meetings mt JOIN users u ON u.id = mt.host_id",
    key: "mt.id",
    owner: "mt.host_id",
    json: `json_build_object('title', mt.title, 'status', mt.status, 'visibility', mt.visibility,
      'starts_at', mt.starts_at, 'ended_at', mt.ended_at, 'owner', ${ownerJson})`,
    // One the reporter may know of (open, hosted, invited) or joined, its host not blocked either way.
    visibleTo: `(mt.visibility = 'open' OR mt.host_id = $2::uuid
        OR EXISTS (SELECT 1 FROM meeting_invitees v WHERE v.meeting_id = mt.id AND v.user_id = $2::uuid)
        OR EXISTS (SELECT 1 FROM meeting_participants mp WHERE mp.meeting_id = mt.id AND mp.user_id = $2::uuid))
      AND ${notBlockedSql("$2::uuid", "mt.host_id")}`,
  },
};

/** The tables a filter may hold a record in, by target type, with their key. */
const heldTables = {
  moment: { table: "moments", key: "id" },
  comment: { table: "moment_comments", key: "id" },
  message: { table: "chat_messages", key: "id" },
  dating_profile: { table: "dating_profiles", key: "user_id" },
  listing: { table: "listings", key: "id" },
} as const;

/** The body a message removed by moderation keeps (its row stays: the conversation's sequence is whole). */
export const REMOVED_MESSAGE_BODY = "[removed by a moderator]";

/**
 * Reports of every target in raw SQL, and the moderators' reads and actions on their targets. A
 * held message's release goes through `messages` (over the same executor): it is delivered as new.
 */
export const createTargetReportRepository = (
  db: SqlExecutor,
  messages: Pick<MessageRepository, "release">,
): TargetReportRepository => {
  const findCurrent = async (type: ReportTargetType, id: string): Promise<TargetState | null> => {
    const t = targets[type];
    const { rows } = await db.query<{ owner_id: string | null; state: Record<string, unknown> }>(
      `SELECT ${t.owner} AS owner_id, ${t.json} AS state FROM ${t.from} WHERE ${t.key} = $1`,
      [idParam(id)],
    );
    const row = rows[0];

    return row ? { ...row.state, owner_id: row.owner_id } : null;
  };
  /** The targets of one type as they are now, by id, in one statement (absent ones are missing). */
  const findCurrentMany = async (type: ReportTargetType, ids: readonly string[]) => {
    const t = targets[type];
    const { rows } = await db.query<{ id: string; owner_id: string | null; state: Record<string, unknown> }>(
      `SELECT ${t.key} AS id, ${t.owner} AS owner_id, ${t.json} AS state FROM ${t.from}
        WHERE ${t.key} = ANY($1::uuid[])`,
      [ids.map(idParam)],
    );

    return new Map(
      rows.map((row): [string, TargetState] => [row.id, { ...row.state, owner_id: row.owner_id }]),
    );
  };

  return {
    async findReportable(type, id, viewerId, now) {
      const t = targets[type];
      const { rows } = await db.query<{ owner_id: string | null; snapshot: Record<string, unknown> }>(
        `SELECT ${t.owner} AS owner_id, ${t.json} AS snapshot FROM ${t.from}
          WHERE ${t.key} = $1 AND (${t.visibleTo})`,
        // Only the listing rule reads the clock ($3).
        type === "listing" ? [idParam(id), viewerId, now] : [idParam(id), viewerId],
      );
      const row = rows[0];

      return row ? { ownerId: row.owner_id, snapshot: row.snapshot } : null;
    },

    async file(report) {
      // A moderator may close the open report between the insert that it blocked and the read: try again.
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const { rows: created } = await db.query<ReportRow>(
          `INSERT INTO reports (id, target_type, target_id, target_owner_id, reporter_id, source, category, reason,
                                note, snapshot, status, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, 'member', $6, $7, $8, $9, 'open', $10, $10)
           ON CONFLICT DO NOTHING
           RETURNING *`,
          [
            report.id,
            report.targetType,
            report.targetId,
            report.targetOwnerId,
            report.reporterId,
            report.category,
            report.reason,
            report.note,
            JSON.stringify(report.snapshot),
            report.createdAt,
          ],
          "reports_file",
        );
        if (created[0]) {
          return { outcome: "created", report: toReport(created[0]) };
        }
        const { rows: open } = await db.query<ReportRow>(
          `SELECT * FROM reports
            WHERE target_type = $1 AND target_id = $2 AND reporter_id = $3 AND status IN ('open', 'reviewing')`,
          [report.targetType, report.targetId, report.reporterId],
          "reports_open_of_reporter",
        );
        if (open[0]) {
          return { outcome: "open_exists", report: toReport(open[0]) };
        }
      }
      throw new Error("report: the open report kept changing");
    },

    async findPage(filter, page) {
      const filters = createFilters();
      filters.where(filter.status !== undefined && `r.status = ${filters.param(filter.status)}`);
      filters.where(filter.targetType !== undefined && `r.target_type = ${filters.param(filter.targetType)}`);
      filters.where(filter.category !== undefined && `r.category = ${filters.param(filter.category)}`);
      const { rows, total } = await selectPage<ReportRow>(
        db,
        { select: "r.*", from: "reports r", order: { table: "r", direction: "ASC" }, filters },
        page,
      );

      return { items: rows.map(toReport), total };
    },

    async findGroups(filter, page) {
      const filters = createFilters();
      filters.where("r.status IN ('open', 'reviewing')");
      filters.where(filter.targetType !== undefined && `r.target_type = ${filters.param(filter.targetType)}`);
      filters.where(filter.category !== undefined && `r.category = ${filters.param(filter.category)}`);
      const undecided = `SELECT r.* FROM reports r WHERE ${filters.sql()}`;
      const values = filters.values;
      const [count, found] = await Promise.all([
        db.query<{ total: number }>(
          `SELECT count(*)::int AS total FROM (SELECT DISTINCT target_type, target_id FROM (${undecided}) u) t`,
          values,
        ),
        db.query<{
          target_type: string;
          target_id: string;
          target_owner_id: string | null;
          open_reports: number;
          oldest: Date;
          categories: Record<string, number>;
        }>(
          `WITH undecided AS (${undecided}),
           per_category AS (
             SELECT target_type, target_id, category, count(*)::int AS n FROM undecided GROUP BY 1, 2, 3)
           SELECT g.target_type, g.target_id, g.target_owner_id, g.open_reports, g.oldest, c.categories
             FROM (SELECT target_type, target_id, min(created_at) AS oldest, count(*)::int AS open_reports,
                          (array_agg(target_owner_id ORDER BY created_at DESC)
                             FILTER (WHERE target_owner_id IS NOT NULL))[1] AS target_owner_id
                     FROM undecided GROUP BY 1, 2) g
             JOIN (SELECT target_type, target_id, json_object_agg(category, n) AS categories
                     FROM per_category GROUP BY 1, 2) c
               ON c.target_type = g.target_type AND c.target_id = g.target_id
            ORDER BY g.oldest, g.target_type, g.target_id
            LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
          [...values, page.limit, page.offset],
        ),
      ]);
      // The page's targets as they are now: one statement per target type on the page (at most 7).
      const byType = new Map<ReportTargetType, string[]>();
      for (const row of found.rows) {
        const type = row.target_type as ReportTargetType;
        byType.set(type, [...(byType.get(type) ?? []), row.target_id]);
      }
      const current = new Map(
        await Promise.all(
          [...byType].map(async ([type, ids]) => [type, await findCurrentMany(type, ids)] as const),
        ),
      );
      const items = found.rows.map((row) => {
        const type = row.target_type as ReportTargetType;

        return {
          targetType: type,
          targetId: row.target_id,
          targetOwnerId: row.target_owner_id,
          openReports: row.open_reports,
          categories: row.categories as Partial<Record<ReportCategory, number>>,
          oldestReportAt: new Date(row.oldest),
          current: current.get(type)?.get(row.target_id) ?? null,
        };
      });

      return { items, total: count.rows[0]?.total ?? 0 };
    },

    findCurrent,

    async findOnTarget(type, id) {
      const { rows } = await db.query<ReportRow>(
        "SELECT * FROM reports WHERE target_type = $1 AND target_id = $2 ORDER BY created_at, id",
        [type, idParam(id)],
      );

      return rows.map(toReport);
    },

    async findEdits(type, id): Promise<ContentEdit[]> {
      const { rows } = await db.query<{
        id: string;
        author_id: string;
        body: string | null;
        edited_at: Date;
      }>(
        `SELECT id, author_id, body, edited_at FROM content_edits
          WHERE target_type = $1 AND target_id = $2 ORDER BY edited_at, id`,
        [type, idParam(id)],
      );

      return rows.map((row) => ({
        id: row.id,
        authorId: row.author_id,
        body: row.body,
        editedAt: row.edited_at,
      }));
    },

    async findMessageContext(messageId, each): Promise<ContextMessage[]> {
      // seq numbers a conversation's messages without gaps: the window is `each` on either side.
      // A held message (a negative seq, outside the sequence) comes after the conversation's
      // newest: its window is the `each` newest messages, then itself. Other held messages of the
      // conversation are not context.
      const { rows } = await db.query<{
        id: string;
        seq: number;
        sender_id: string;
        body: string;
        message_type: string;
        created_at: Date;
      }>(
        `SELECT msg.id, msg.seq, msg.sender_id, msg.body, msg.message_type, msg.created_at
           FROM chat_messages t
           JOIN conversations c ON c.id = t.conversation_id
           CROSS JOIN LATERAL (SELECT CASE WHEN t.seq >= 1 THEN t.seq ELSE c.last_seq + 1 END AS at) centre
           JOIN chat_messages msg ON msg.conversation_id = t.conversation_id
          WHERE t.id = $1
            AND (msg.id = t.id OR (msg.seq >= 1 AND msg.seq BETWEEN centre.at - $2 AND centre.at + $2))
          ORDER BY msg.seq < 1, msg.seq LIMIT $3`,
        [idParam(messageId), each, each * 2 + 1],
      );

      return rows.map((row) => ({
        id: row.id,
        seq: row.seq,
        senderId: row.sender_id,
        body: row.body,
        messageType: row.message_type,
        createdAt: row.created_at,
      }));
    },

    async lockTarget(type, id) {
      await db.query(`SELECT ${lockTargetSql("$1::text", "$2::text")}`, [type, id]);
    },

    async closeOpen(type, id, change) {
      const { rows } = await db.query<ReportRow & { previous_status: string }>(
        `WITH prior AS (
           SELECT id, status FROM reports
            WHERE target_type = $1 AND target_id = $2 AND status IN ('open', 'reviewing')
            ORDER BY id FOR UPDATE
         )
         UPDATE reports r
            SET status = $3, decision = $4, reviewer_id = $5, reviewed_at = COALESCE(r.reviewed_at, $7),
                updated_at = $7, resolution_note = $6, resolved_at = $7
           FROM prior WHERE r.id = prior.id
         RETURNING r.*, prior.status AS previous_status`,
        [type, idParam(id), change.status, change.decision, change.reviewerId, change.note, change.at],
        "reports_close_open",
      );

      return rows
        .map((row) => ({ ...toReport(row), previousStatus: row.previous_status as ReportStatus }))
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
    },

    async hide(type, id, at) {
      const statement =
        type === "dating_profile"
          ? "UPDATE dating_profiles SET visible = false, updated_at = $2 WHERE user_id = $1"
          : "UPDATE listings SET status = 'suspended', updated_at = $2 WHERE id = $1";
      await db.query(statement, [idParam(id), at]);
    },

    async remove(type, id, at) {
      let statement: string;
      switch (type) {
        case "message":
          statement = `WITH media AS (DELETE FROM message_media WHERE message_id = $1)
            UPDATE chat_messages SET body = '${REMOVED_MESSAGE_BODY}', message_type = 'text'
             WHERE id = $1 RETURNING id`;
          break;
        case "dating_profile":
          // Its photos leave the public at once and are left to the orphan purge (docs/media.md).
          statement = `WITH media AS (
              UPDATE media_assets SET attached_at = NULL, visibility = 'private'
               WHERE id IN (SELECT media_asset_id FROM dating_profile_media WHERE user_id = $1))
            DELETE FROM dating_profiles WHERE user_id = $1 RETURNING user_id`;
          break;
        case "meeting":
          statement = `UPDATE meetings SET status = 'ended', ended_at = COALESCE(ended_at, $2), updated_at = $2
             WHERE id = $1 AND status <> 'ended' RETURNING id`;
          break;
        default: {
          const unknown: never = type;
          throw new Error(`cannot remove ${String(unknown)}`);
        }
      }
      const values = type === "meeting" ? [idParam(id), at] : [idParam(id)];
      const { rows } = await db.query(statement, values);

      return rows.length > 0;
    },

    async release(type, id, at) {
      if (type === "message") {
        return messages.release(id, at);
      }
      const { table, key } = heldTables[type];
      if (type === "listing") {
        // A held menu item's filter report is on its listing: releasing the listing releases its
        // held items too (one statement; whether anything was released).
        const { rows } = await db.query<{ released: number }>(
          `WITH items AS (
             UPDATE menu_items SET held_at = NULL WHERE listing_id = $1 AND held_at IS NOT NULL RETURNING 1
           ), listing AS (
             UPDATE listings SET held_at = NULL WHERE id = $1 AND held_at IS NOT NULL RETURNING 1
           )
           SELECT ((SELECT count(*) FROM items) + (SELECT count(*) FROM listing))::int AS released`,
          [idParam(id)],
        );

        return (rows[0]?.released ?? 0) > 0;
      }
      const { rowCount } = await db.query(
        `UPDATE ${table} SET held_at = NULL WHERE ${key} = $1 AND held_at IS NOT NULL`,
        [idParam(id)],
      );

      return rowCount > 0;
    },
  };
};
