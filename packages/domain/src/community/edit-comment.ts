import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import { fileFilterReport, screenText } from "../moderation/screen-text";
import { findChangeableComment } from "./comment-access";
import type { CommunityDeps } from "./community.deps";
import type { Comment } from "./community.types";

/**
 * The author edits their comment's text (1 to 2000 characters, trimmed, as at creation): who may
 * is findChangeableComment's rule. The text it had goes into `content_edits` and `edited_at` is
 * set; the same text again records nothing. The row is locked, so edits run one at a time. The
 * new text is screened by the content filters as a new comment's is (docs/safety.md, "Filters").
 */
export const editComment = async (
  deps: Pick<CommunityDeps, "uow" | "repos" | "clock" | "ids" | "filters">,
  actor: Actor,
  input: { commentId: string; body: string },
): Promise<Comment> => {
  const comment = await findChangeableComment(deps.repos, actor, input.commentId, "edit");
  const screening = await screenText(deps, "comments", { body: input.body });
  const now = deps.clock.now();

  return deps.uow.run(async (tx) => {
    const locked = await tx.ownContent.findComment(comment.id, { lock: true });
    if (!locked) {
      throw new NotFoundError("Comment");
    }
    if (locked.body !== input.body) {
      await tx.ownContent.recordEdit({
        id: deps.ids.next(),
        targetType: "comment",
        targetId: locked.id,
        authorId: locked.authorId,
        body: locked.body,
        editedAt: now,
      });
      await tx.ownContent.updateCommentBody(locked.id, input.body, now, screening.action === "hold");
      await fileFilterReport(tx, deps, screening, {
        type: "comment",
        id: locked.id,
        ownerId: locked.authorId,
        snapshot: { body: input.body, moment_id: locked.momentId, edited: true },
        at: now,
      });
    }
    const edited = await tx.comments.findById(locked.id);
    if (!edited) {
      throw new NotFoundError("Comment");
    }

    return edited;
  });
};
