import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import { findChangeableComment } from "./comment-access";
import type { CommunityDeps } from "./community.deps";

/**
 * Deletes a comment, by its author or the author of the moment it is under (findChangeableComment).
 * The moment's comment counter moves in the same statement, once: of two deletions at once, the
 * second finds nothing and answers 404, as does a deletion already done.
 */
export const deleteComment = async (
  deps: Pick<CommunityDeps, "uow" | "repos">,
  actor: Actor,
  commentId: string,
): Promise<{ id: string }> => {
  const comment = await findChangeableComment(deps.repos, actor, commentId, "delete");

  return deps.uow.run(async (tx) => {
    if (!(await tx.ownContent.deleteComment(comment.id))) {
      throw new NotFoundError("Comment");
    }

    return { id: comment.id };
  });
};
