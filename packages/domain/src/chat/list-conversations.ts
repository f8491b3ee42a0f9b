import type { Actor } from "../shared/actor";
import type { ChatDeps } from "./chat.deps";
import { CHAT_PAGE_SIZE } from "./chat.types";
import { type ConversationView, viewConversation } from "./message-views";

/** The caller's 50 most recently active conversations, newest activity first. */
export const listConversations = async (
  { repos, objects, clock }: Pick<ChatDeps, "repos" | "objects" | "clock">,
  actor: Actor,
): Promise<ConversationView[]> => {
  const summaries = await repos.conversations.listSummariesByParticipant(actor.userId, CHAT_PAGE_SIZE);
  const now = clock.now();

  return Promise.all(summaries.map((summary) => viewConversation(objects, summary, now)));
};
