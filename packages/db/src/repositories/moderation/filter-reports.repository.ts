import type { FilterReportWriter } from "@agora/domain/moderation/content-filter.ports";
import type { SqlExecutor } from "../../sql";

/**
 * Filter reports on the `reports` table (source `filter`, no reporter, category and reason
 * `other`): one insert, skipped when the target has an open or reviewing report of the same rule
 * (the partial unique index reports_one_open_filter_idx, so two writes at once file one).
 */
export const createFilterReportWriter = (db: SqlExecutor): FilterReportWriter => ({
  async fileOnce(report) {
    const inserted = await db.query(
      `INSERT INTO reports (id, target_type, target_id, target_owner_id, reporter_id, source, filter_rule_id,
                            category, reason, note, snapshot, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, NULL, 'filter', $5, 'other', 'other', $6, $7::jsonb, 'open', $8, $8)
       ON CONFLICT DO NOTHING`,
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
