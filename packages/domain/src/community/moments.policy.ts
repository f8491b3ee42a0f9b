import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import { assertNotBlocked } from "./blocks.policy";
import type { CommunityRepositories } from "./community.ports";
import type { Moment } from "./community.types";

/**
 * Who sees a moment ("visible to others"): its author always; anyone else while moderation has not
 * hidden it and its author's account is active (a suspended or deleted author's moments leave every
 * read by others, and come back on reactivation). The feed and media reads apply the same rule in
 * SQL (momentVisibleToSql in packages/db/src/repositories/community/moment-queries.ts);
 * apps/api/src/modules/community/author-presence.int.test.ts reads each before, during and after a
 * suspension.
 */
export const canSeeMoment = (
  actor: Actor,
  moment: Pick<Moment, "hidden" | "author" | "authorActive">,
): boolean => moment.author.id === actor.userId || (!moment.hidden && moment.authorActive);

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
