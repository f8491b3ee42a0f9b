import type { Actor } from "../shared/actor";
import { NotFoundError } from "../shared/app-error";
import type { NotificationsDeps } from "./notifications.deps";
import type { Notification } from "./notifications.types";

/**
 * Marks one of the caller's notifications read. Idempotent: reading it again keeps the first
 * read_at. Another user's notification is 404, as is an unknown or malformed id.
 */
export const readNotification = async (
  { notifications, clock }: Pick<NotificationsDeps, "notifications" | "clock">,
  actor: Actor,
  notificationId: string,
): Promise<Notification> => {
  const notification = await notifications.markRead(notificationId, actor.userId, clock.now());
  if (!notification) {
    throw new NotFoundError("Notification");
  }

  return notification;
};
