import type { Actor } from "../shared/actor";
import type { ChatDeps } from "./chat.deps";
import { CHAT_PAGE_SIZE, type ConversationSummary } from "./chat.types";

/** The caller's 50 most recently active conversations, newest activity first. */
export const listConversations = (
  { repos }: Pick<ChatDeps, "repos">,
  actor: Actor,
): Promise<ConversationSummary[]> =>
  repos.conversations.listSummariesByParticipant(actor.userId, CHAT_PAGE_SIZE);
