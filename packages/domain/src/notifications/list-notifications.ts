import type { Actor } from "../common/actor";
import { NOTIFICATIONS_PER_READ, type NotificationsDeps } from "./notifications.deps";
import type { NotificationPage } from "./notifications.types";
import { unreadTotal } from "./unread-total";

/**
 * A page of the caller's inbox (at most 50), newest first: the first, or the one after `before`;
 * with the caller's unread count.
 */
export const listNotifications = async (
  { notifications }: Pick<NotificationsDeps, "notifications">,
  actor: Actor,
  before?: string,
): Promise<NotificationPage & { unreadCount: number }> => {
  const [page, unreadCount] = await Promise.all([
    notifications.listPage(actor.userId, { before, limit: NOTIFICATIONS_PER_READ }),
    unreadTotal(notifications, actor.userId),
  ]);

  return { ...page, unreadCount };
};
