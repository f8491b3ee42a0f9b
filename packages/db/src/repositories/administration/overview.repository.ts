import type { OverviewReadModel } from "@agora/domain/administration/administration.ports";
import type { SqlExecutor } from "../../sql";

/** The overview's totals in one statement of aggregates (see getOverview for their definitions). */
export const createOverviewReadModel = (db: SqlExecutor): OverviewReadModel => ({
  async overview({ overdueBefore }) {
    const { rows } = await db.query<{
      users: Record<string, number> | null;
      providers: Record<string, number> | null;
      listings: Record<string, number> | null;
      orders_awaiting: number;
      payments_awaiting: number;
      open_reports: number;
      overdue_reports: number;
      hidden_moments: number;
    }>(
      `SELECT
         (SELECT json_object_agg(status, n) FROM (SELECT status, count(*)::int AS n FROM users GROUP BY status) s) AS users,
         (SELECT json_object_agg(approval_status, n) FROM (
            SELECT approval_status, count(*)::int AS n FROM provider_profiles GROUP BY approval_status) s) AS providers,
         (SELECT json_object_agg(status, n) FROM (SELECT status, count(*)::int AS n FROM listings GROUP BY status) s) AS listings,
         (SELECT count(*)::int FROM orders WHERE status = 'pending') AS orders_awaiting,
         (SELECT count(*)::int FROM payments WHERE status = 'payment_submitted') AS payments_awaiting,
         (SELECT count(*)::int FROM reports WHERE status IN ('open', 'reviewing')) AS open_reports,
         (SELECT count(*)::int FROM reports
           WHERE status IN ('open', 'reviewing') AND created_at < $1) AS overdue_reports,
         (SELECT count(*)::int FROM moments WHERE hidden_at IS NOT NULL) AS hidden_moments`,
      [overdueBefore],
      "admin_overview",
    );
    const row = rows[0];

    return {
      usersByStatus: row?.users ?? {},
      providers: { pending: row?.providers?.pending ?? 0, approved: row?.providers?.approved ?? 0 },
      listingsByStatus: row?.listings ?? {},
      ordersAwaitingAction: row?.orders_awaiting ?? 0,
      paymentsAwaitingReview: row?.payments_awaiting ?? 0,
      openReports: row?.open_reports ?? 0,
      overdueReports: row?.overdue_reports ?? 0,
      hiddenMoments: row?.hidden_moments ?? 0,
    };
  },
});
