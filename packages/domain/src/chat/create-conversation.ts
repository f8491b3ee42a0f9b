import type { Actor } from "../common/actor";
import { NotFoundError, ValidationError } from "../common/app-error";
import { assertNotBlocked } from "../community/blocks.policy";
import type { ChatDeps } from "./chat.deps";
import { orderedPair } from "./chat.policy";
import { type ConversationView, viewConversation } from "./message-views";

/**
 * Creates the one conversation of the caller and `otherUserId`, or finds it: a pair has one
 * conversation whoever starts it, and parallel creates from both sides meet on one row (the
 * unique index on the ordered pair). Oneself is 422, an unknown or deleted user 404, a pair where
 * either blocks the other 403.
 */
export const createConversation = async (
  { repos, clock, ids, objects }: Pick<ChatDeps, "repos" | "clock" | "ids" | "objects">,
  actor: Actor,
  otherUserId: string,
): Promise<ConversationView> => {
  if (otherUserId.toLowerCase() === actor.userId) {
    throw new ValidationError([{ path: "other_user_id", message: "cannot be yourself" }]);
  }
  const other = await repos.users.findById(otherUserId);
  if (!other || other.status === "deleted") {
    throw new NotFoundError("User");
  }
  await assertNotBlocked(repos.blocks, actor.userId, other.id);
  const [userAId, userBId] = orderedPair(actor.userId, other.id);
  await repos.conversations.insertPair({ id: ids.next(), userAId, userBId, at: clock.now() });
  const conversation = await repos.conversations.findSummaryByPair(userAId, userBId, actor.userId);
  if (!conversation) {
    // The insert above committed, or found the row another request committed: it cannot be missing.
    throw new Error("the conversation of the pair is missing after its insert");
  }

  return viewConversation(objects, conversation, clock.now(), actor.userId);
};
