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
        `SELECT r.id AS report_id, r.created_at, r.status, r.reason, r.note, r.moment_id,
                m.author_id AS moment_author_id, m.hidden_at IS NOT NULL AS moment_hidden, r.reporter_id,
                r.reviewer_id, r.resolution_note, r.reviewed_at, r.resolved_at
           FROM moment_reports r JOIN moments m ON m.id = r.moment_id
          WHERE $1::timestamptz IS NULL OR (r.created_at, r.id) > ($1::timestamptz, $2::uuid)
          ORDER BY r.created_at, r.id
          LIMIT $3`,
        [after?.createdAt ?? null, after?.id ?? null, batchSize],
        "moment_reports_export_batch",
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
