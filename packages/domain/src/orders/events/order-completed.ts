import { type NotifyDeps, notify } from "../../notifications/notify";
import { defineEventKind } from "../../outbox/event-kind";
import { type GuestReceiptDeps, mailGuestReceipt } from "../guest-receipts";
import { orderMovedNotices, orderMovedPayload } from "./order-moved";

/** An order was completed (its snapshot and primary sale were written with it). */
export const orderCompleted = defineEventKind({
  kind: "order.completed",
  aggregateType: "order",
  payload: orderMovedPayload,
  deliver: async (deps: NotifyDeps & { guestReceipts: GuestReceiptDeps }, event) => {
    await notify(deps, event, orderMovedNotices(event));
    // A guest has no inbox: the move is mailed to them instead (unless they unsubscribed).
    if (event.payload.customer_id === null) {
      await mailGuestReceipt(deps.guestReceipts, event.payload.order_id, "updated");
    }
  },
});
