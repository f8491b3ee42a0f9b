import type { Actor } from "../common/actor";
import { unreadTotal } from "../notifications/unread-total";
import type { ChatDeps } from "./chat.deps";
import { CHAT_PAGE_SIZE } from "./chat.types";
import { type ConversationView, viewConversation } from "./message-views";

/**
 * A page of the caller's conversations (at most 50), most recently active first: the first, or
 * the one after `before`; with the caller's unread count (unreadTotal).
 */
export const listConversations = async (
  { repos, objects, clock }: Pick<ChatDeps, "repos" | "objects" | "clock">,
  actor: Actor,
  before?: string,
): Promise<{ items: ConversationView[]; nextBefore: string | null; unreadCount: number }> => {
  const [page, unreadCount] = await Promise.all([
    repos.conversations.listSummariesPage(actor.userId, { before, limit: CHAT_PAGE_SIZE }),
    unreadTotal(repos.notifications, actor.userId),
  ]);
  const now = clock.now();
  const items = await Promise.all(
    page.items.map((summary) => viewConversation(objects, summary, now, actor.userId)),
  );

  return { items, nextBefore: page.nextBefore, unreadCount };
};
