import type { Actor } from "../common/actor";
import { ForbiddenError, NotFoundError } from "../common/app-error";
import type { CommunityDeps } from "./community.deps";
import { findVisibleMoment } from "./moments.policy";
import { type ContentChange, commentVisibleToOthers, mayChangeComment } from "./own-content.policy";
import type { CommentFacts } from "./own-content.ports";

/**
 * The comment a change names, when the caller may make it: 404 when the comment is absent, its
 * moment is not visible to the caller (the moment rule, 403 across a block with the moment's
 * author), or the comment is not visible to them; 403 `forbidden` when they see it but the change
 * is not theirs (mayChangeComment). The moment's author may delete any comment under it.
 */
export const findChangeableComment = async (
  repos: CommunityDeps["repos"],
  actor: Actor,
  commentId: string,
  change: ContentChange,
): Promise<CommentFacts> => {
  const comment = await repos.ownContent.findComment(commentId);
  if (!comment) {
    throw new NotFoundError("Comment");
  }
  await findVisibleMoment(repos, actor, comment.momentId);
  const facts = {
    isAuthor: comment.authorId === actor.userId,
    isMomentAuthor: comment.momentAuthorId === actor.userId,
  };
  if (mayChangeComment(change, facts)) {
    return comment;
  }
  const visible = commentVisibleToOthers({
    authorPresent: comment.authorActive,
    blockedEitherWay: await repos.blocks.isBlockedEitherWay(actor.userId, comment.authorId),
  });
  if (!visible) {
    throw new NotFoundError("Comment");
  }
  throw new ForbiddenError(
    change === "edit"
      ? "Only its author may edit a comment."
      : "Only its author or the moment's author may delete a comment.",
  );
};
