import type { Actor } from "../common/actor";
import type { CommunityDeps } from "./community.deps";
import type { MomentCounters } from "./community.types";
import { findVisibleMoment } from "./moments.policy";

/** The server's counters of a moment the caller may see. */
export const getMomentCounters = async (
  { repos }: Pick<CommunityDeps, "repos">,
  actor: Actor,
  momentId: string,
): Promise<MomentCounters> => (await findVisibleMoment(repos, actor, momentId)).counters;
