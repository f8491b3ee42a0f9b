import { type NotifyDeps, notify } from "../../notifications/notify";
import { defineEventKind } from "../../outbox/event-kind";
import { type GuestReceiptDeps, mailGuestReceipt } from "../guest-receipts";
import { orderMovedNotices, orderMovedPayload } from "./order-moved";

/** An order was confirmed, started or cancelled. */
export const orderStatusChanged = defineEventKind({
  kind: "order.status_changed",
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
