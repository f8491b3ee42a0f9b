import { unreadTotal } from "../notifications/unread-total";
import type { Actor } from "../shared/actor";
import type { ChatDeps } from "./chat.deps";
import { CHAT_PAGE_SIZE, type ConversationSummary } from "./chat.types";

/**
 * A page of the caller's conversations (at most 50), most recently active first: the first, or
 * the one after `before`; with the caller's unread count (unreadTotal).
 */
export const listConversations = async (
  { repos }: Pick<ChatDeps, "repos">,
  actor: Actor,
  before?: string,
): Promise<{ items: ConversationSummary[]; nextBefore: string | null; unreadCount: number }> => {
  const [page, unreadCount] = await Promise.all([
    repos.conversations.listSummariesPage(actor.userId, { before, limit: CHAT_PAGE_SIZE }),
    unreadTotal(repos.notifications, actor.userId),
  ]);

  return { ...page, unreadCount };
};
