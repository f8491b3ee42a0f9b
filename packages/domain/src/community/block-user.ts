import type { Actor } from "../common/actor";
import { findBlockTarget } from "./block-target";
import type { CommunityDeps } from "./community.deps";

/** Blocks a user. Idempotent: blocking again answers the same and changes nothing. */
export const blockUser = async (
  deps: CommunityDeps,
  actor: Actor,
  userId: string,
): Promise<{ userId: string }> => {
  const user = await findBlockTarget(deps, actor, userId);
  await deps.repos.blocks.block(actor.userId, user.id, deps.clock.now());

  return { userId: user.id };
};
