import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import { fileFilterReport, screenText } from "../moderation/screen-text";
import type { CommunityDeps } from "./community.deps";
import type { Comment } from "./community.types";
import { findVisibleMoment } from "./moments.policy";

/**
 * Comments on a moment the caller may see (404 otherwise; 403 when the caller and its author block
 * each other). The comment and the moment's comment counter commit together. Its text is screened
 * by the content filters (docs/safety.md, "Filters"): 422 content_blocked, or held (its author's
 * only until approved; the counter includes it) or flagged, with a filter report.
 */
export const addComment = async (
  deps: Pick<CommunityDeps, "uow" | "repos" | "clock" | "ids" | "filters">,
  actor: Actor,
  input: { momentId: string; body: string },
): Promise<Comment> => {
  const moment = await findVisibleMoment(deps.repos, actor, input.momentId);
  const screening = await screenText(deps, "comments", { body: input.body });
  const id = deps.ids.next();
  const now = deps.clock.now();

  return deps.uow.run(async (tx) => {
    await tx.comments.create({
      id,
      momentId: moment.id,
      authorId: actor.userId,
      body: input.body,
      createdAt: now,
      heldAt: screening.action === "hold" ? now : null,
    });
    await fileFilterReport(tx, deps, screening, {
      type: "comment",
      id,
      ownerId: actor.userId,
      snapshot: { body: input.body, moment_id: moment.id },
      at: now,
    });
    const comment = await tx.comments.findById(id);
    if (!comment) {
      throw new NotFoundError("Comment");
    }

    return comment;
  });
};
