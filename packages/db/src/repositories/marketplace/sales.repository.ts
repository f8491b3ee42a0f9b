import type { SaleRepository } from "@agora/domain/marketplace/marketplace.ports";
import type { SqlExecutor } from "../../sql";

export const createSaleRepository = (db: SqlExecutor): SaleRepository => ({
  async create(sale) {
    // One primary sale per order (unique order_id): a second completion writes nothing.
    const { rows } = await db.query(
      `INSERT INTO sales (id, provider_id, source, order_id, amount, currency, description, customer_label,
                          occurred_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (order_id) DO NOTHING RETURNING 1`,
      [
        sale.id,
        sale.providerId,
        sale.source,
        sale.orderId,
        sale.amount,
        sale.currency,
        sale.description,
        sale.customerLabel,
        sale.occurredAt,
        sale.createdAt,
      ],
    );

    return rows.length === 1;
  },
});
