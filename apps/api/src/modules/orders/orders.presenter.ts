import type { OrderDto, PaymentDto } from "@agora/contracts/orders";
import type { OrderSettings } from "@agora/domain/orders/orders.deps";
import type { Order, Payment } from "@agora/domain/orders/orders.types";

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

export const toPaymentDto = (
  payment: Payment,
  settings: Pick<OrderSettings, "paymentInstructions">,
): PaymentDto => {
  const instructions = settings.paymentInstructions[payment.method];

  return {
    id: payment.id,
    purpose: payment.purpose,
    purpose_id: payment.purposeId,
    amount: payment.amount,
    currency: payment.currency,
    status: payment.status,
    method: payment.method,
    version: payment.version,
    ...(instructions ? { instructions } : {}),
    created_at: payment.createdAt.toISOString(),
    updated_at: payment.updatedAt.toISOString(),
  };
};
