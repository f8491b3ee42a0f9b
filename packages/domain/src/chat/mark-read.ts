import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import type { ChatDeps } from "./chat.deps";
import type { ReadMarker } from "./chat.types";

/**
 * Moves the caller's read marker to the conversation's newest message. Monotonic: the marker and
 * read_at never move back. The other participant's open sockets (and the caller's other devices)
 * get a `read` frame through the fan-out. Participants only; anyone else gets 404.
 */
export const markRead = async (
  { repos, clock }: Pick<ChatDeps, "repos" | "clock">,
  actor: Actor,
  conversationId: string,
): Promise<ReadMarker> => {
  const marker = await repos.conversations.markRead(conversationId, actor.userId, clock.now());
  if (!marker) {
    throw new NotFoundError("Conversation");
  }

  return marker;
};
