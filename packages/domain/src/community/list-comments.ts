import type { Actor } from "../common/actor";
import type { CommunityDeps } from "./community.deps";
import type { Comment } from "./community.types";
import { findVisibleMoment } from "./moments.policy";

/**
 * The comments of a moment the caller may see, newest first, `limit` at a time (`before` pages
 * back); comments whose author and the caller block each other are left out.
 */
export const listComments = async (
  { repos }: Pick<CommunityDeps, "repos">,
  actor: Actor,
  momentId: string,
  page: { limit: number; before: string | undefined },
): Promise<Comment[]> => {
  const moment = await findVisibleMoment(repos, actor, momentId);

  return repos.comments.listForViewer(moment.id, actor.userId, page);
};
