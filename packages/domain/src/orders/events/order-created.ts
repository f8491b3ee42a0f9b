import { z } from "zod";
import { type NotifyDeps, notify } from "../../notifications/notify";
import { defineEventKind } from "../../outbox/event-kind";
import { orderLine } from "../completion";
import { type GuestReceiptDeps, mailGuestReceipt } from "../guest-receipts";

/**
 * A new order: its provider is told, and its customer: a member in the inbox, a guest by a
 * receipt mail (a guest has no inbox).
 */
export const orderCreated = defineEventKind({
  kind: "order.created",
  aggregateType: "order",
  payload: z.object({
    order_id: z.uuid(),
    provider_user_id: z.uuid(),
    customer_id: z.uuid().nullable(),
    item_name: z.string(),
    quantity: z.number().int(),
  }),
  deliver: async (deps: NotifyDeps & { guestReceipts: GuestReceiptDeps }, event) => {
    const { payload } = event;
    const body = orderLine({ quantity: payload.quantity, itemName: payload.item_name });
    const data = { order_id: payload.order_id };

    await notify(deps, event, [
      { userId: payload.provider_user_id, kind: event.kind, title: "New order", body, data },
      ...(payload.customer_id
        ? [{ userId: payload.customer_id, kind: event.kind, title: "Order placed", body, data }]
        : []),
    ]);
    if (payload.customer_id === null) {
      await mailGuestReceipt(deps.guestReceipts, payload.order_id, "placed");
    }
  },
});
