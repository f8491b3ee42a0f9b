import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import type { NotificationsDeps } from "./notifications.deps";
import type { Notification } from "./notifications.types";

/**
 * Marks one of the caller's notifications read. Idempotent: reading it again keeps the first
 * read_at. A chat notice is read by reading its conversation (the caller's read marker moves to
 * its newest message, as `POST /chat/conversations/{id}/read` does). Another user's notification
 * is 404, as is an unknown or malformed id.
 */
export const readNotification = async (
  {
    notifications,
    conversations,
    clock,
  }: Pick<NotificationsDeps, "notifications" | "conversations" | "clock">,
  actor: Actor,
  notificationId: string,
): Promise<Notification> => {
  const now = clock.now();
  const notification = await notifications.markRead(notificationId, actor.userId, now);
  if (!notification) {
    throw new NotFoundError("Notification");
  }
  if (notification.conversationId === null) {
    return notification;
  }
  await conversations.markRead(notification.conversationId, actor.userId, now);

  return (await notifications.findForUser(notificationId, actor.userId)) ?? notification;
};
