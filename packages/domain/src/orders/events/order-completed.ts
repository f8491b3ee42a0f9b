import { type NotifyDeps, notify } from "../../notifications/notify";
import { defineEventKind } from "../../outbox/event-kind";
import { orderMovedNotices, orderMovedPayload } from "./order-moved";

/** An order was completed (its snapshot and primary sale were written with it). */
export const orderCompleted = defineEventKind({
  kind: "order.completed",
  aggregateType: "order",
  payload: orderMovedPayload,
  deliver: (deps: NotifyDeps, event) => notify(deps, event, orderMovedNotices(event)),
});
