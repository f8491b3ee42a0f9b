import type { ReportRepository } from "@agora/domain/community/community.ports";
import type {
  ModeratedReport,
  MomentReport,
  ReportReason,
  ReportStatus,
} from "@agora/domain/community/community.types";
import { createFilters, selectPage } from "../../filters";
import type { MomentReport as MomentReportModel } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";

type ModeratedRow = RowOf<MomentReportModel> & { moment_author_id: string; moment_hidden: boolean };

/** A report's columns (from `r`, the report row) with its moment's author and state (from `m`). */
const moderatedColumnsOf = (r: string) => `${r}.id, ${r}.moment_id, ${r}.reporter_id, ${r}.reason, ${r}.note,
  ${r}.status, ${r}.reviewer_id, ${r}.resolution_note, ${r}.reviewed_at, ${r}.resolved_at, ${r}.created_at,
  ${r}.updated_at, m.author_id AS moment_author_id, m.hidden_at IS NOT NULL AS moment_hidden`;

const moderatedColumns = moderatedColumnsOf("r");

const moderatedFrom = "moment_reports r JOIN moments m ON m.id = r.moment_id";

const toModerated = (row: ModeratedRow): ModeratedReport => ({
  id: row.id,
  momentId: row.moment_id,
  reporterId: row.reporter_id,
  reason: row.reason as ReportReason,
  note: row.note,
  status: row.status as ReportStatus,
  createdAt: row.created_at,
  momentAuthorId: row.moment_author_id,
  momentHidden: row.moment_hidden,
  reviewerId: row.reviewer_id,
  resolutionNote: row.resolution_note,
  reviewedAt: row.reviewed_at,
  resolvedAt: row.resolved_at,
  updatedAt: row.updated_at,
});

type ReportRow = Pick<
  RowOf<MomentReportModel>,
  "id" | "moment_id" | "reporter_id" | "reason" | "note" | "status" | "created_at"
>;

const reportColumns = "id, moment_id, reporter_id, reason, note, status, created_at";

const toReport = (row: ReportRow): MomentReport => ({
  id: row.id,
  momentId: row.moment_id,
  reporterId: row.reporter_id,
  reason: row.reason as ReportReason,
  note: row.note,
  status: row.status as ReportStatus,
  createdAt: row.created_at,
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
      "SELECT count(DISTINCT moment_id)::int AS total FROM moment_reports WHERE status = ANY($1::text[])",
      [statuses],
    ),
    db.query<ModeratedRow & { moment_open_reports: number }>(
      `WITH grouped AS (
         SELECT DISTINCT ON (moment_id) id, count(*) OVER (PARTITION BY moment_id)::int AS moment_open_reports
           FROM moment_reports WHERE status = ANY($1::text[])
          ORDER BY moment_id, created_at, id)
       SELECT ${moderatedColumns}, g.moment_open_reports
         FROM grouped g JOIN moment_reports r ON r.id = g.id JOIN moments m ON m.id = r.moment_id
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
 * Reports in raw SQL: filed with one open per reporter and moment (a partial unique index); the
 * moderators' reads and locked review steps.
 */
export const createReportRepository = (db: SqlExecutor): ReportRepository => ({
  async create(report) {
    // A moderator may close the open report between the insert that it blocked and the read: try again.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const { rows: created } = await db.query<ReportRow>(
        `INSERT INTO moment_reports (id, moment_id, reporter_id, reason, note, status, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, 'open', $6, $6)
         ON CONFLICT DO NOTHING
         RETURNING ${reportColumns}`,
        [report.id, report.momentId, report.reporterId, report.reason, report.note, report.createdAt],
        "moment_reports_create",
      );
      if (created[0]) {
        return { outcome: "created", report: toReport(created[0]) };
      }
      const { rows: open } = await db.query<ReportRow>(
        `SELECT ${reportColumns} FROM moment_reports
          WHERE moment_id = $1 AND reporter_id = $2 AND status IN ('open', 'reviewing')`,
        [report.momentId, report.reporterId],
        "moment_reports_open",
      );
      if (open[0]) {
        return { outcome: "open_exists", report: toReport(open[0]) };
      }
    }
    throw new Error("moment report: the open report kept changing");
  },

  async findPage(filter, page) {
    if (filter.groupByMoment) {
      return findMomentGroups(db, filter.status, page);
    }
    const filters = createFilters();
    filters.where(filter.status !== undefined && `r.status = ${filters.param(filter.status)}`);
    const { rows, total } = await selectPage<ModeratedRow>(
      db,
      { select: moderatedColumns, from: moderatedFrom, order: { table: "r", direction: "ASC" }, filters },
      page,
    );

    return { items: rows.map(toModerated), total };
  },

  async lockMomentOf(reportId) {
    // FOR NO KEY UPDATE: a like or comment's foreign-key check (KEY SHARE) on the moment still passes.
    await db.query(
      "SELECT m.id FROM moment_reports r JOIN moments m ON m.id = r.moment_id WHERE r.id = $1 FOR NO KEY UPDATE OF m",
      [idParam(reportId)],
    );
  },

  async closeOpenOnMoment(momentId, change) {
    const { rows } = await db.query<ModeratedRow & { previous_status: string }>(
      `WITH prior AS (
         SELECT id, status FROM moment_reports
          WHERE moment_id = $1 AND status IN ('open', 'reviewing') FOR UPDATE
       ), changed AS (
         UPDATE moment_reports r
            SET status = $2, reviewer_id = $3, reviewed_at = COALESCE(r.reviewed_at, $5), updated_at = $5,
                resolution_note = $4, resolved_at = $5
           FROM prior WHERE r.id = prior.id RETURNING r.*, prior.status AS previous_status)
       SELECT ${moderatedColumnsOf("changed")}, changed.previous_status
         FROM changed JOIN moments m ON m.id = changed.moment_id
        ORDER BY changed.created_at, changed.id`,
      [idParam(momentId), change.status, change.reviewerId, change.note, change.at],
    );

    return rows.map((row) => ({ ...toModerated(row), previousStatus: row.previous_status as ReportStatus }));
  },

  async findByIdForUpdate(id) {
    const { rows } = await db.query<ModeratedRow>(
      `SELECT ${moderatedColumns} FROM ${moderatedFrom} WHERE r.id = $1 FOR UPDATE OF r`,
      [idParam(id)],
    );

    return rows[0] ? toModerated(rows[0]) : null;
  },

  async review(id, change) {
    // Closing a report (resolved, dismissed) records its resolution; other moves keep what was.
    const closes = change.status === "resolved" || change.status === "dismissed";
    const { rows } = await db.query<ModeratedRow>(
      `WITH changed AS (
         UPDATE moment_reports
            SET status = $2, reviewer_id = $3, reviewed_at = COALESCE(reviewed_at, $5), updated_at = $5,
                resolution_note = CASE WHEN $6::boolean THEN $4 ELSE resolution_note END,
                resolved_at = CASE WHEN $6::boolean THEN $5 ELSE resolved_at END
          WHERE id = $1 RETURNING *)
       SELECT ${moderatedColumnsOf("changed")} FROM changed JOIN moments m ON m.id = changed.moment_id`,
      [id, change.status, change.reviewerId, change.note, change.at, closes],
    );
    const row = rows[0];
    if (!row) {
      throw new Error(`moment report ${id} vanished while it was reviewed`);
    }

    return toModerated(row);
  },
});
