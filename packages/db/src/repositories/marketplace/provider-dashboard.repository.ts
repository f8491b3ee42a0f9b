import type { DashboardReadModel } from "@agora/domain/marketplace/marketplace.ports";
import type { ListingStatus } from "@agora/domain/marketplace/marketplace.types";
import type { SqlExecutor } from "../../sql";

const listingStatusKeys: ListingStatus[] = ["draft", "active", "inactive", "suspended"];

const orderStatusKeys = ["pending", "confirmed", "in_progress", "completed", "cancelled"];

/** One statement of aggregates over the provider's own rows (no rows are loaded). */
export const createDashboardReadModel = (db: SqlExecutor): DashboardReadModel => ({
  async forProvider(provider, now) {
    const since = new Date(now.getTime() - 30 * 24 * 3600_000);
    const { rows } = await db.query<{
      listings: Record<string, number> | null;
      orders: Record<string, number> | null;
      revenue: { currency: string; orders: number | string; manual: number | string }[] | null;
      pending_payments: number;
    }>(
      `SELECT
         (SELECT json_object_agg(status, n) FROM (
            SELECT status, count(*)::int AS n FROM listings WHERE provider_id = $1 GROUP BY status) s) AS listings,
         (SELECT json_object_agg(status, n) FROM (
            SELECT status, count(*)::int AS n FROM orders WHERE provider_id = $1 GROUP BY status) s) AS orders,
         (SELECT json_agg(json_build_object('currency', currency, 'orders', orders, 'manual', manual) ORDER BY currency)
            FROM (SELECT currency,
                         COALESCE(sum(amount) FILTER (WHERE source = 'order'), 0) AS orders,
                         COALESCE(sum(amount) FILTER (WHERE source = 'manual'), 0) AS manual
                    FROM sales WHERE provider_id = $1 AND occurred_at > $2 AND occurred_at <= $3
                   GROUP BY currency) r) AS revenue,
         (SELECT count(*)::int FROM payments pay JOIN orders o ON o.id = pay.order_id
           WHERE o.provider_id = $1 AND pay.status = 'payment_submitted') AS pending_payments`,
      [provider.id, since, now],
      "provider_dashboard",
    );
    const row = rows[0];
    const listingsByStatus = Object.fromEntries(
      listingStatusKeys.map((status) => [status, row?.listings?.[status] ?? 0]),
    ) as Record<ListingStatus, number>;

    return {
      providerId: provider.id,
      approvalStatus: provider.approvalStatus,
      listingsByStatus,
      ordersByStatus: Object.fromEntries(
        orderStatusKeys.map((status) => [status, row?.orders?.[status] ?? 0]),
      ),
      revenue30d: (row?.revenue ?? []).map((entry) => {
        const orders = Number(entry.orders);
        const manualSales = Number(entry.manual);

        return { currency: entry.currency, orders, manualSales, total: orders + manualSales };
      }),
      pendingPayments: row?.pending_payments ?? 0,
    };
  },
});
