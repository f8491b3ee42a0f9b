import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import type { CommunityDeps } from "./community.deps";
import type { MomentCounters } from "./community.types";
import { findVisibleMoment } from "./moments.policy";

/**
 * Takes the caller's like of a moment they may see back. Idempotent: unliking when not liked
 * answers the counters unchanged; parallel likes and unlikes of one user keep the counter equal to
 * the likes there are.
 */
export const unlikeMoment = async (
  deps: Pick<CommunityDeps, "repos">,
  actor: Actor,
  momentId: string,
): Promise<MomentCounters> => {
  const moment = await findVisibleMoment(deps.repos, actor, momentId);
  const counters = await deps.repos.ownContent.unlike(moment.id, actor.userId);
  if (!counters) {
    throw new NotFoundError("Moment");
  }

  return counters;
};
