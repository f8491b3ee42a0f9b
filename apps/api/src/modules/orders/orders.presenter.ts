import type { OrderDto } from "@agora/contracts/orders";
import type { Order } from "@agora/domain/orders/orders.types";

export const toOrderDto = (order: Order): OrderDto => ({
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
  status: order.status,
  payment_status: order.paymentStatus,
  version: order.version,
  notes: order.notes,
  schedule_at: order.scheduleAt?.toISOString() ?? null,
  created_at: order.createdAt.toISOString(),
  updated_at: order.updatedAt.toISOString(),
});
