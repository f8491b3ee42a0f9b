import type { ReportsReadModel } from "@agora/domain/administration/administration.ports";
import type { AmountByCurrency } from "@agora/domain/administration/administration.types";
import type { SqlExecutor } from "../../sql";

/** Listings in scope: all when $3 is NULL, else those of the services in $3. */
const inScope = (listingId: string) =>
  `($3::uuid[] IS NULL OR ${listingId} IN (
     SELECT l.id FROM listings l JOIN categories c ON c.id = l.category_id WHERE c.service_id = ANY($3::uuid[])))`;

type Money = { currency: string; amount: string | number; count: number };

const money = (rows: Money[] | null): AmountByCurrency[] =>
  (rows ?? []).map((row) => ({ currency: row.currency, amount: Number(row.amount), count: row.count }));

/**
 * The reporting summary in one statement: one aggregate per figure group over the window
 * [$1, $2], scoped by the services in $3 (see getReportsSummary for the definitions).
 */
export const createReportsReadModel = (db: SqlExecutor): ReportsReadModel => ({
  async summary({ from, to }, serviceIds) {
    const { rows } = await db.query<{
      orders: Record<string, number> | null;
      completed: Money[] | null;
      manual: Money[] | null;
      confirmed: number;
      awaiting: number;
      new_listings: number;
    }>(
      `SELECT
         (SELECT json_object_agg(status, n) FROM (
            SELECT o.status, count(*)::int AS n FROM orders o
             WHERE o.created_at >= $1 AND o.created_at <= $2 AND ${inScope("o.listing_id")}
             GROUP BY o.status) s) AS orders,
         (SELECT json_agg(json_build_object('currency', currency, 'amount', amount, 'count', n) ORDER BY currency) FROM (
            SELECT o.currency, sum(o.total_amount) AS amount, count(*)::int AS n
              FROM completed_orders co JOIN orders o ON o.id = co.order_id
             WHERE co.completed_at >= $1 AND co.completed_at <= $2 AND ${inScope("o.listing_id")}
             GROUP BY o.currency) s) AS completed,
         (SELECT json_agg(json_build_object('currency', currency, 'amount', amount, 'count', n) ORDER BY currency) FROM (
            SELECT s.currency, sum(s.amount) AS amount, count(*)::int AS n FROM sales s
             WHERE s.source = 'manual' AND s.occurred_at >= $1 AND s.occurred_at <= $2
               AND ($3::uuid[] IS NULL OR s.provider_id IN (
                     SELECT l.provider_id FROM listings l JOIN categories c ON c.id = l.category_id
                      WHERE c.service_id = ANY($3::uuid[])))
             GROUP BY s.currency) s) AS manual,
         (SELECT count(*)::int FROM payments pay LEFT JOIN orders o ON o.id = pay.order_id
           WHERE pay.status = 'payment_confirmed' AND pay.decided_at >= $1 AND pay.decided_at <= $2
             AND ${inScope("COALESCE(pay.listing_id, o.listing_id)")}) AS confirmed,
         (SELECT count(*)::int FROM payments pay LEFT JOIN orders o ON o.id = pay.order_id
           WHERE pay.status = 'payment_submitted' AND ${inScope("COALESCE(pay.listing_id, o.listing_id)")}) AS awaiting,
         (SELECT count(*)::int FROM listings l
           WHERE l.created_at >= $1 AND l.created_at <= $2 AND ${inScope("l.id")}) AS new_listings`,
      [from, to, serviceIds === null ? null : [...serviceIds]],
      "reports_summary",
    );
    const row = rows[0];

    return {
      serviceIds: serviceIds === null ? null : [...serviceIds],
      from,
      to,
      ordersByStatus: row?.orders ?? {},
      completedGross: money(row?.completed ?? null),
      manualSales: money(row?.manual ?? null),
      paymentsConfirmed: row?.confirmed ?? 0,
      paymentsAwaitingReview: row?.awaiting ?? 0,
      newListings: row?.new_listings ?? 0,
    };
  },
});
