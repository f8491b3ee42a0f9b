import type { NotifyDeps } from "../notifications/notify";
import type { EventKind } from "../outbox/event-kind";
import { orderCompleted } from "./events/order-completed";
import { orderCreated } from "./events/order-created";
import { orderStatusChanged } from "./events/order-status-changed";

/** The orders area's outbox event kinds (registered in event-kinds.ts, delivered by the worker). */
export const ordersEvents: ReadonlyArray<EventKind<unknown, NotifyDeps>> = [
  orderCreated,
  orderStatusChanged,
  orderCompleted,
];
