import type { CompletedOrderRepository } from "@agora/domain/orders/orders.ports";
import type { SqlExecutor } from "../../sql";

export const createCompletedOrderRepository = (db: SqlExecutor): CompletedOrderRepository => ({
  async create(snapshot) {
    const { rows } = await db.query(
      `INSERT INTO completed_orders (id, order_id, provider_id, data, completed_at)
       VALUES ($1, $2, $3, $4::jsonb, $5) ON CONFLICT (order_id) DO NOTHING RETURNING 1`,
      [
        snapshot.id,
        snapshot.orderId,
        snapshot.providerId,
        JSON.stringify(snapshot.data),
        snapshot.completedAt,
      ],
    );

    return rows.length === 1;
  },
});
