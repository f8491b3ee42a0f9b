import type { ReportExportSource } from "@agora/domain/administration/administration.ports";
import type { ReportExportRow } from "@agora/domain/administration/administration.types";
import type { SqlExecutor } from "../../sql";

/**
 * The export's rows, oldest first, by keyset pages over (created_at, id): each batch is one short
 * statement on the pool, so the export holds no transaction and no connection between batches.
 */
export const createReportExportSource = (db: SqlExecutor): ReportExportSource => ({
  async *batches(batchSize) {
    let after = null as { createdAt: Date; id: string } | null;
    for (;;) {
      const { rows }: { rows: ReportExportRow[] } = await db.query<ReportExportRow>(
        `SELECT r.id AS report_id, r.created_at, r.status, r.reason, r.note,
                CASE WHEN r.target_type = 'moment' THEN r.target_id END AS moment_id,
                CASE WHEN r.target_type = 'moment' THEN r.target_owner_id END AS moment_author_id,
                CASE WHEN r.target_type = 'moment' THEN m.hidden_at IS NOT NULL END AS moment_hidden,
                r.reporter_id, r.reviewer_id, r.resolution_note, r.reviewed_at, r.resolved_at,
                r.target_type, r.target_id, r.target_owner_id, r.category, r.source, r.decision
           FROM reports r
           LEFT JOIN moments m ON r.target_type = 'moment' AND m.id = r.target_id
          WHERE $1::timestamptz IS NULL OR (r.created_at, r.id) > ($1::timestamptz, $2::uuid)
          ORDER BY r.created_at, r.id
          LIMIT $3`,
        [after?.createdAt ?? null, after?.id ?? null, batchSize],
        "reports_export_batch",
      );
      if (rows.length > 0) {
        yield rows;
      }
      const last: ReportExportRow | undefined = rows.at(-1);
      if (!last || rows.length < batchSize) {
        return;
      }
      after = { createdAt: last.created_at, id: last.report_id };
    }
  },
});
