import type { Actor } from "../shared/actor";
import { NotFoundError } from "../shared/app-error";
import { assertNotBlocked } from "./blocks.policy";
import type { CommunityRepositories } from "./community.ports";
import type { Moment } from "./community.types";

/**
 * Who sees a moment: everyone while it is not hidden; once moderation hid it, its author only.
 * The feed applies the same rule in its SQL (MomentRepository.listFeed).
 */
export const canSeeMoment = (actor: Actor, moment: Pick<Moment, "hidden" | "author">): boolean =>
  !moment.hidden || moment.author.id === actor.userId;

/**
 * The moment a route names, as the caller sees it: 404 when absent or hidden from them, 403 when
 * the caller and its author block each other either way (the one block rule).
 */
export const findVisibleMoment = async (
  repos: Pick<CommunityRepositories, "moments" | "blocks">,
  actor: Actor,
  momentId: string,
): Promise<Moment> => {
  const moment = await repos.moments.findById(momentId, actor.userId);
  if (!moment || !canSeeMoment(actor, moment)) {
    throw new NotFoundError("Moment");
  }
  await assertNotBlocked(repos.blocks, actor.userId, moment.author.id);

  return moment;
};
