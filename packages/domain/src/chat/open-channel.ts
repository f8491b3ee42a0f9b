import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import type { ChatDeps } from "./chat.deps";

/** What a realtime socket is allowed: its conversation, its user and session, where it starts. */
export type ChannelGrant = {
  conversationId: string;
  userId: string;
  /** The conversation's other participant (whose typing and presence the socket is sent). */
  peerId: string;
  /** The socket lives as long as this session (logout, suspension and deletion end it). */
  sessionId: string;
  /** Messages after this seq are pushed: `after` when given (capped at the newest), else the newest. */
  afterSeq: number;
};

/**
 * Admits the caller to a conversation's realtime channel: participants only (404 otherwise). With
 * `after`, the channel first replays every message after that seq, in order, then goes live.
 */
export const openChannel = async (
  { repos }: Pick<ChatDeps, "repos">,
  actor: Actor,
  conversationId: string,
  after: number | undefined,
): Promise<ChannelGrant> => {
  const conversation = await repos.conversations.findForParticipant(conversationId, actor.userId);
  if (!conversation) {
    throw new NotFoundError("Conversation");
  }

  return {
    conversationId: conversation.id,
    userId: actor.userId,
    peerId: conversation.participantIds.find((id) => id !== actor.userId) ?? actor.userId,
    sessionId: actor.sessionId,
    afterSeq: after === undefined ? conversation.lastSeq : Math.min(after, conversation.lastSeq),
  };
};
