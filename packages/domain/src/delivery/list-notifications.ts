import type { Actor } from "../shared/actor";
import { type DeliveryDeps, NOTIFICATIONS_PER_READ } from "./delivery.deps";
import type { Notification } from "./delivery.types";

/** The caller's newest notifications (at most 50), newest first. */
export const listNotifications = async (
  { notifications }: Pick<DeliveryDeps, "notifications">,
  actor: Actor,
): Promise<Notification[]> => notifications.listByUser(actor.userId, NOTIFICATIONS_PER_READ);
