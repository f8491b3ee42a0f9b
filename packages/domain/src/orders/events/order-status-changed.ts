import { type NotifyDeps, notify } from "../../notifications/notify";
import { defineEventKind } from "../../outbox/event-kind";
import { orderMovedNotices, orderMovedPayload } from "./order-moved";

/** An order was confirmed, started or cancelled. */
export const orderStatusChanged = defineEventKind({
  kind: "order.status_changed",
  aggregateType: "order",
  payload: orderMovedPayload,
  deliver: (deps: NotifyDeps, event) => notify(deps, event, orderMovedNotices(event)),
});
