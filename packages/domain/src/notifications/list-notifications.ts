import type { Actor } from "../shared/actor";
import { NOTIFICATIONS_PER_READ, type NotificationsDeps } from "./notifications.deps";
import type { Notification } from "./notifications.types";

/** The caller's newest notifications (at most 50), newest first. */
export const listNotifications = async (
  { notifications }: Pick<NotificationsDeps, "notifications">,
  actor: Actor,
): Promise<Notification[]> => notifications.listByUser(actor.userId, NOTIFICATIONS_PER_READ);
