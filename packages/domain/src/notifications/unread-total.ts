import type { NotificationRepository } from "./notifications.ports";

/**
 * The member's unread count: unread notices other than chat, plus the unread messages of every
 * conversation. The one function behind `meta.unread_count` (inbox and conversation list) and the
 * push badge, so the numbers a member sees never disagree.
 */
export const unreadTotal = (
  notifications: Pick<NotificationRepository, "countUnread">,
  userId: string,
): Promise<number> => notifications.countUnread(userId);
