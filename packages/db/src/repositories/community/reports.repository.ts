import type { ReportRepository } from "@agora/domain/community/community.ports";
import type { ModeratedReport, ReportReason, ReportStatus } from "@agora/domain/community/community.types";
import { createFilters, selectPage } from "../../filters";
import type { Report as ReportModel } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";
import { lockTargetSql } from "./report-targets.repository";

type ModeratedRow = Pick<
  RowOf<ReportModel>,
  | "id"
  | "reporter_id"
  | "reason"
  | "note"
  | "status"
  | "reviewer_id"
  | "resolution_note"
  | "reviewed_at"
  | "resolved_at"
  | "created_at"
  | "updated_at"
> & { moment_id: string; moment_author_id: string; moment_hidden: boolean; moment_deleted: boolean };

/**
 * A moment report's columns (from `r`, a reports row) with its moment's author and state (from
 * `m`, the moments row LEFT JOINed: a deleted moment's reports stay, with the author the report
 * recorded).
 */
const moderatedColumnsOf = (
  r: string,
) => `${r}.id, ${r}.target_id AS moment_id, ${r}.reporter_id, ${r}.reason,
  ${r}.note, ${r}.status, ${r}.reviewer_id, ${r}.resolution_note, ${r}.reviewed_at, ${r}.resolved_at,
  ${r}.created_at, ${r}.updated_at,
  COALESCE(m.author_id, ${r}.target_owner_id, (${r}.snapshot -> 'owner' ->> 'id')::uuid) AS moment_author_id,
  COALESCE(m.hidden_at IS NOT NULL, false) AS moment_hidden, m.id IS NULL AS moment_deleted`;

const moderatedColumns = moderatedColumnsOf("r");

/** The moment routes read members' reports on moments only (a filter's are decided per target). */
const momentReportsOnly = "r.target_type = 'moment' AND r.source = 'member'";

const moderatedFrom = "reports r LEFT JOIN moments m ON m.id = r.target_id";

const toModerated = (row: ModeratedRow): ModeratedReport => ({
  id: row.id,
  momentId: row.moment_id,
  reporterId: row.reporter_id ?? "",
  reason: row.reason as ReportReason,
  note: row.note,
  status: row.status as ReportStatus,
  createdAt: row.created_at,
  momentAuthorId: row.moment_author_id,
  momentHidden: row.moment_hidden,
  momentDeleted: row.moment_deleted,
  reviewerId: row.reviewer_id,
  resolutionNote: row.resolution_note,
  reviewedAt: row.reviewed_at,
  resolvedAt: row.resolved_at,
  updatedAt: row.updated_at,
});

/** The statuses of a report still waiting for a decision. */
const openStatuses: ReportStatus[] = ["open", "reviewing"];

/**
 * The queue grouped by moment: per moment with reports of `status` (default: open or reviewing),
 * its oldest such report and how many there are, oldest first; the total counts the moments.
 */
const findMomentGroups = async (
  db: SqlExecutor,
  status: ReportStatus | undefined,
  page: { limit: number; offset: number },
) => {
  const statuses = status === undefined ? openStatuses : [status];
  const [count, found] = await Promise.all([
    db.query<{ total: number }>(
      `SELECT count(DISTINCT r.target_id)::int AS total FROM reports r
        WHERE ${momentReportsOnly} AND r.status = ANY($1::text[])`,
      [statuses],
    ),
    db.query<ModeratedRow & { moment_open_reports: number }>(
      `WITH grouped AS (
         SELECT DISTINCT ON (r.target_id) r.id, count(*) OVER (PARTITION BY r.target_id)::int AS moment_open_reports
           FROM reports r WHERE ${momentReportsOnly} AND r.status = ANY($1::text[])
          ORDER BY r.target_id, r.created_at, r.id)
       SELECT ${moderatedColumns}, g.moment_open_reports
         FROM grouped g JOIN reports r ON r.id = g.id LEFT JOIN moments m ON m.id = r.target_id
        ORDER BY r.created_at, r.id LIMIT $2 OFFSET $3`,
      [statuses, page.limit, page.offset],
    ),
  ]);

  return {
    items: found.rows.map((row) => ({ ...toModerated(row), momentOpenReports: row.moment_open_reports })),
    total: count.rows[0]?.total ?? 0,
  };
};

/**
 * The moment routes' reports (SPEC) in raw SQL over the `reports` table (target_type moment): the
 * moderators' reads and locked review steps. Filing goes through the target reports' `file`.
 */
export const createReportRepository = (db: SqlExecutor): ReportRepository => ({
  async findPage(filter, page) {
    if (filter.groupByMoment) {
      return findMomentGroups(db, filter.status, page);
    }
    const filters = createFilters();
    filters.where(momentReportsOnly);
    filters.where(filter.status !== undefined && `r.status = ${filters.param(filter.status)}`);
    const { rows, total } = await selectPage<ModeratedRow>(
      db,
      { select: moderatedColumns, from: moderatedFrom, order: { table: "r", direction: "ASC" }, filters },
      page,
    );

    return { items: rows.map(toModerated), total };
  },

  async lockMomentOf(reportId) {
    // The target's lock, as a decision on the target takes it (report-targets.repository.ts).
    await db.query(
      `SELECT ${lockTargetSql("r.target_type", "r.target_id::text")} FROM reports r WHERE r.id = $1`,
      [idParam(reportId)],
    );
  },

  async closeOpenOnMoment(momentId, change) {
    const { rows } = await db.query<ModeratedRow & { previous_status: string }>(
      `WITH prior AS (
         SELECT id, status FROM reports r
          WHERE r.target_type = 'moment' AND r.target_id = $1 AND r.source = 'member'
            AND r.status IN ('open', 'reviewing') FOR UPDATE
       ), changed AS (
         UPDATE reports r
            SET status = $2, reviewer_id = $3, reviewed_at = COALESCE(r.reviewed_at, $5), updated_at = $5,
                resolution_note = $4, resolved_at = $5, decision = $6
           FROM prior WHERE r.id = prior.id RETURNING r.*, prior.status AS previous_status)
       SELECT ${moderatedColumnsOf("changed")}, changed.previous_status
         FROM changed LEFT JOIN moments m ON m.id = changed.target_id
        ORDER BY changed.created_at, changed.id`,
      [idParam(momentId), change.status, change.reviewerId, change.note, change.at, change.decision],
    );

    return rows.map((row) => ({ ...toModerated(row), previousStatus: row.previous_status as ReportStatus }));
  },

  async findByIdForUpdate(id) {
    const { rows } = await db.query<ModeratedRow>(
      `SELECT ${moderatedColumns} FROM ${moderatedFrom} WHERE r.id = $1 AND ${momentReportsOnly} FOR UPDATE OF r`,
      [idParam(id)],
    );

    return rows[0] ? toModerated(rows[0]) : null;
  },

  async review(id, change) {
    // Closing a report (resolved, dismissed) records its resolution; other moves keep what was.
    const closes = change.status === "resolved" || change.status === "dismissed";
    const { rows } = await db.query<ModeratedRow>(
      `WITH changed AS (
         UPDATE reports
            SET status = $2, reviewer_id = $3, reviewed_at = COALESCE(reviewed_at, $5), updated_at = $5,
                resolution_note = CASE WHEN $6::boolean THEN $4 ELSE resolution_note END,
                resolved_at = CASE WHEN $6::boolean THEN $5 ELSE resolved_at END,
                decision = CASE WHEN $6::boolean THEN $7 ELSE decision END
          WHERE id = $1 RETURNING *)
       SELECT ${moderatedColumnsOf("changed")} FROM changed LEFT JOIN moments m ON m.id = changed.target_id`,
      [id, change.status, change.reviewerId, change.note, change.at, closes, change.decision ?? null],
    );
    const row = rows[0];
    if (!row) {
      throw new Error(`moment report ${id} vanished while it was reviewed`);
    }

    return toModerated(row);
  },
});
