import type { Actor } from "../common/actor";
import type { NotificationsDeps } from "./notifications.deps";
import { unreadTotal } from "./unread-total";

/**
 * Marks every notice of the caller read in one request: the unread inbox rows, and every
 * conversation with unread messages (which reads their chat notices). Idempotent. Resolves how
 * many of each moved and the unread count after (0 unless something arrived meanwhile).
 */
export const readAllNotifications = async (
  {
    notifications,
    conversations,
    clock,
  }: Pick<NotificationsDeps, "notifications" | "conversations" | "clock">,
  actor: Actor,
): Promise<{ notifications: number; conversations: number; unreadCount: number }> => {
  const now = clock.now();
  const marked = await notifications.markAllRead(actor.userId, now);
  const conversationsRead = await conversations.markAllRead(actor.userId, now);

  return {
    notifications: marked,
    conversations: conversationsRead,
    unreadCount: await unreadTotal(notifications, actor.userId),
  };
};
