import type { Actor } from "../common/actor";
import { ForbiddenError, NotFoundError } from "../common/app-error";
import { fileFilterReport, screenText } from "../moderation/screen-text";
import type { CommunityDeps } from "./community.deps";
import type { Moment } from "./community.types";
import { findVisibleMoment } from "./moments.policy";
import { editedMomentBody, mayChangeMoment } from "./own-content.policy";

/**
 * The author edits their moment's text (docs/safety.md, "Your own content"): 404 when the caller
 * cannot see it, 403 `forbidden` when they can but did not write it. A moment hidden by moderation
 * may be edited and stays hidden. The text it had goes into `content_edits` (for moderators) and
 * `edited_at` is set; the same text again records nothing. Edits of one moment run one at a time
 * (the row is locked), so two at once both succeed and each replaced text is kept once. The new
 * text is screened by the content filters as a new moment's is (docs/safety.md, "Filters"): 422
 * content_blocked, or held (an edit never releases a hold) or flagged, with a filter report.
 */
export const editMoment = async (
  deps: Pick<CommunityDeps, "uow" | "repos" | "clock" | "ids" | "filters">,
  actor: Actor,
  input: { momentId: string; body: string },
): Promise<Moment> => {
  const moment = await findVisibleMoment(deps.repos, actor, input.momentId);
  if (!mayChangeMoment({ isAuthor: moment.author.id === actor.userId })) {
    throw new ForbiddenError("Only its author may edit a moment.");
  }
  // Its media cannot change, so the rule "text, media or both" is decided here, before the
  // transaction (the author reads every asset of their moment, rejected ones included).
  const body = editedMomentBody(input.body, moment.mediaAssetIds.length);
  const screening = await screenText(deps, "moments", { body });
  const now = deps.clock.now();

  return deps.uow.run(async (tx) => {
    const locked = await tx.ownContent.lockMoment(moment.id);
    if (!locked) {
      throw new NotFoundError("Moment");
    }
    if (locked.body !== body) {
      await tx.ownContent.recordEdit({
        id: deps.ids.next(),
        targetType: "moment",
        targetId: locked.id,
        authorId: locked.authorId,
        body: locked.body,
        editedAt: now,
      });
      await tx.ownContent.updateMomentBody(locked.id, body, now, screening.action === "hold");
      await fileFilterReport(tx, deps, screening, {
        type: "moment",
        id: locked.id,
        ownerId: locked.authorId,
        snapshot: { body, media_asset_ids: moment.mediaAssetIds, edited: true },
        at: now,
      });
    }
    const edited = await tx.moments.findById(locked.id, actor.userId);
    if (!edited) {
      throw new NotFoundError("Moment");
    }

    return edited;
  });
};
