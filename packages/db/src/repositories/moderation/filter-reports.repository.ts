import type { FilterReportWriter } from "@agora/domain/moderation/content-filter.ports";
import type { SqlExecutor } from "../../sql";

/**
 * Filter reports on the `reports` table (source `filter`, no reporter, category and reason
 * `other`): one insert, skipped when the target has an open or reviewing report of the same rule.
 * Two writes hitting the same new target cannot race (the target is the write's own new record);
 * a flagged listing edited twice at once may file two, which moderators close together.
 */
export const createFilterReportWriter = (db: SqlExecutor): FilterReportWriter => ({
  async fileOnce(report) {
    const inserted = await db.query(
      `INSERT INTO reports (id, target_type, target_id, target_owner_id, reporter_id, source, filter_rule_id,
                            category, reason, note, snapshot, status, created_at, updated_at)
       SELECT $1, $2, $3, $4, NULL, 'filter', $5, 'other', 'other', $6, $7::jsonb, 'open', $8, $8
        WHERE NOT EXISTS (SELECT 1 FROM reports
                           WHERE target_type = $2 AND target_id = $3 AND filter_rule_id = $5
                             AND status IN ('open', 'reviewing'))`,
      [
        report.id,
        report.targetType,
        report.targetId,
        report.targetOwnerId,
        report.rule.id,
        `Content filter: ${report.rule.match} rule "${report.rule.value}".`,
        JSON.stringify(report.snapshot),
        report.at,
      ],
      "filter_reports_file_once",
    );

    return inserted.rowCount > 0;
  },
});
