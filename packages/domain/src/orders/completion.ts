import type { NewSale } from "../marketplace/marketplace.types";
import type { CompletedOrderSnapshot, Order } from "./orders.types";

/** What an order line reads as, in sales and notifications. */
export const orderLine = (order: Pick<Order, "quantity" | "itemName">): string =>
  `${order.quantity} × ${order.itemName}`;

/** The completed-order snapshot kept for reports (see CompletedOrderSnapshot). */
export const completionSnapshot = (order: Order, id: string, at: Date): CompletedOrderSnapshot => ({
  id,
  orderId: order.id,
  providerId: order.providerId,
  completedAt: at,
  data: {
    id: order.id,
    customer_id: order.customerId,
    provider_id: order.providerId,
    listing_id: order.listingId,
    menu_item_id: order.menuItemId,
    item_name: order.itemName,
    unit_price_amount: order.unitPriceAmount,
    quantity: order.quantity,
    total_amount: order.totalAmount,
    currency: order.currency,
    version: order.version,
    completed_at: at.toISOString(),
  },
});

/** The primary sale of a completed order: its total, booked to its provider at completion. */
export const primarySale = (order: Order, id: string, at: Date): NewSale => ({
  id,
  providerId: order.providerId,
  source: "order",
  orderId: order.id,
  amount: order.totalAmount,
  currency: order.currency,
  description: orderLine(order),
  customerLabel: null,
  occurredAt: at,
  createdAt: at,
});
