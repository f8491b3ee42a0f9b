import { orderCompleted } from "./events/order-completed";
import { orderCreated } from "./events/order-created";
import { orderStatusChanged } from "./events/order-status-changed";

/** The orders area's outbox event kinds (registered in event-kinds.ts, delivered by the worker). */
export const ordersEvents = [orderCreated, orderStatusChanged, orderCompleted] as const;
