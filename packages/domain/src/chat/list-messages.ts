import type { Actor } from "../shared/actor";
import { NotFoundError } from "../shared/app-error";
import type { ChatDeps } from "./chat.deps";
import { CHAT_PAGE_SIZE, type MessagePage, type PageCursor } from "./chat.types";

/**
 * A page of a conversation's messages, in ascending seq: the newest 50, the 50 before a seq
 * (paging back) or the 50 after one (catching up). Participants only; anyone else gets 404.
 */
export const listMessages = async (
  { repos }: Pick<ChatDeps, "repos">,
  actor: Actor,
  conversationId: string,
  cursor: PageCursor,
): Promise<MessagePage> => {
  const conversation = await repos.conversations.findForParticipant(conversationId, actor.userId);
  if (!conversation) {
    throw new NotFoundError("Conversation");
  }

  return repos.messages.listPage(conversation.id, cursor, CHAT_PAGE_SIZE);
};
