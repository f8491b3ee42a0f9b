import { z } from "zod";
import type { NotificationRequest } from "../../notifications/notify";
import type { DeliverableEvent } from "../../outbox/event-kind";
import { orderLine } from "../completion";
import { orderStatuses, type RequestableStatus } from "../orders.types";

/** The payload of an order's move (order.status_changed, order.completed). */
export const orderMovedPayload = z.object({
  order_id: z.uuid(),
  from: z.enum(orderStatuses),
  to: z.enum(orderStatuses),
  /** Who made the move: not told about it. */
  actor_id: z.uuid(),
  customer_id: z.uuid().nullable(),
  provider_user_id: z.uuid(),
  item_name: z.string(),
  quantity: z.number().int(),
});
export type OrderMovedPayload = z.infer<typeof orderMovedPayload>;

const statusWords: Record<RequestableStatus, string> = {
  confirmed: "confirmed",
  in_progress: "in progress",
  completed: "completed",
  cancelled: "cancelled",
};

/** The other side of the order hears about a move: its customer and its provider, but not the actor. */
export const orderMovedNotices = (event: DeliverableEvent<OrderMovedPayload>): NotificationRequest[] => {
  const { payload } = event;
  const title = `Order ${statusWords[payload.to as RequestableStatus] ?? payload.to}`;
  const body = orderLine({ quantity: payload.quantity, itemName: payload.item_name });
  const data = { order_id: payload.order_id, status: payload.to };
  const recipients = new Set(
    [payload.customer_id, payload.provider_user_id].filter(
      (userId): userId is string => userId !== null && userId !== payload.actor_id,
    ),
  );

  return [...recipients].map((userId) => ({ userId, kind: event.kind, title, body, data }));
};
