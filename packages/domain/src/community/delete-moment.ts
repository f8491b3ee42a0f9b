import type { Actor } from "../common/actor";
import { ForbiddenError, NotFoundError } from "../common/app-error";
import type { CommunityDeps } from "./community.deps";
import { findVisibleMoment } from "./moments.policy";
import { mayChangeMoment } from "./own-content.policy";

/**
 * The author deletes their moment, hidden by moderation or not: 404 when the caller cannot see it
 * (a deletion already done included), 403 `forbidden` when they can but did not write it. Its
 * media are detached and made private at once (the orphan purge deletes them), its comments,
 * likes, views and edits go with it, and its reports (the `reports` table) stay for moderators.
 * Nothing of moments is cached: every read sees the deletion on commit.
 */
export const deleteMoment = async (
  deps: Pick<CommunityDeps, "uow" | "repos">,
  actor: Actor,
  momentId: string,
): Promise<{ id: string }> => {
  const moment = await findVisibleMoment(deps.repos, actor, momentId);
  if (!mayChangeMoment({ isAuthor: moment.author.id === actor.userId })) {
    throw new ForbiddenError("Only its author may delete a moment.");
  }

  return deps.uow.run(async (tx) => {
    if (!(await tx.ownContent.deleteMoment(moment.id))) {
      throw new NotFoundError("Moment");
    }

    return { id: moment.id };
  });
};
