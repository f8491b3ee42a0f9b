import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import type { CommunityDeps } from "./community.deps";
import type { MomentCounters } from "./community.types";
import { findVisibleMoment } from "./moments.policy";

/** Likes a moment the caller may see. Idempotent: a repeated or parallel like counts once. */
export const likeMoment = async (
  deps: Pick<CommunityDeps, "repos" | "clock">,
  actor: Actor,
  momentId: string,
): Promise<MomentCounters> => {
  const moment = await findVisibleMoment(deps.repos, actor, momentId);
  const counters = await deps.repos.moments.like(moment.id, actor.userId, deps.clock.now());
  if (!counters) {
    throw new NotFoundError("Moment");
  }

  return counters;
};
