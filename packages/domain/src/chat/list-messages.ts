import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import type { ChatDeps } from "./chat.deps";
import { CHAT_PAGE_SIZE, type PageCursor } from "./chat.types";
import { type MessageView, viewMessages } from "./message-views";

/**
 * A page of a conversation's messages, in ascending seq: the newest 50, the 50 before a seq
 * (paging back) or the 50 after one (catching up), with their media's read URLs. Participants
 * only; anyone else gets 404. A held message is its sender's only: at the end of their newest page.
 */
export const listMessages = async (
  { repos, objects, clock }: Pick<ChatDeps, "repos" | "objects" | "clock">,
  actor: Actor,
  conversationId: string,
  cursor: PageCursor,
): Promise<{ messages: MessageView[]; hasMore: boolean }> => {
  const conversation = await repos.conversations.findForParticipant(conversationId, actor.userId);
  if (!conversation) {
    throw new NotFoundError("Conversation");
  }
  // The caller's own held messages come at the end of the newest page (only they see them).
  const page = await repos.messages.listPage(conversation.id, cursor, CHAT_PAGE_SIZE, actor.userId);

  return {
    messages: await viewMessages(objects, page.messages, clock.now(), actor.userId),
    hasMore: page.hasMore,
  };
};
