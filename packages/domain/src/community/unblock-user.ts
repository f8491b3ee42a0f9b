import type { Actor } from "../common/actor";
import { findBlockTarget } from "./block-target";
import type { CommunityDeps } from "./community.deps";

/** Removes the caller's block of a user. Idempotent: unblocking someone not blocked changes nothing. */
export const unblockUser = async (
  deps: CommunityDeps,
  actor: Actor,
  userId: string,
): Promise<{ userId: string }> => {
  const user = await findBlockTarget(deps, actor, userId);
  await deps.repos.blocks.unblock(actor.userId, user.id);

  return { userId: user.id };
};
