import type { Actor } from "../common/actor";
import { NotFoundError, ValidationError } from "../common/app-error";
import { attachMedia, prepareAttachment } from "../media/attach-media";
import { fileFilterReport, screenText } from "../moderation/screen-text";
import type { CommunityDeps } from "./community.deps";
import type { Moment } from "./community.types";

export type CreateMomentInput = { body: string | undefined; mediaAssetIds: readonly string[] };

const assetField = (index: number) => `media_asset_ids.${index}`;

/**
 * Publishes a public moment: text, media or both (422 with neither). Its media are up to 5 of the
 * caller's own assets uploaded for `moment`, confirmed in the store before the transaction and
 * attached in it (422 when one is not usable); attaching them makes them public. Its text is
 * screened by the content filters first (docs/safety.md, "Filters"): 422 content_blocked, or held
 * (its author's only until approved) or flagged, with a filter report.
 */
export const createMoment = async (
  deps: CommunityDeps,
  actor: Actor,
  input: CreateMomentInput,
): Promise<Moment> => {
  const body = input.body?.trim() ? input.body : null;
  if (body === null && input.mediaAssetIds.length === 0) {
    throw new ValidationError([{ path: "body", message: "a moment needs text, media or both" }]);
  }
  const screening = await screenText(deps, "moments", { body });
  await prepareAttachment(deps, actor, input.mediaAssetIds, "moment", assetField);
  const now = deps.clock.now();
  const id = deps.ids.next();

  return deps.uow.run(async (tx) => {
    await attachMedia(tx, actor, input.mediaAssetIds, "moment", { at: now, public: true, field: assetField });
    await tx.moments.create({
      id,
      authorId: actor.userId,
      body,
      mediaAssetIds: input.mediaAssetIds,
      createdAt: now,
      heldAt: screening.action === "hold" ? now : null,
    });
    await fileFilterReport(tx, deps, screening, {
      type: "moment",
      id,
      ownerId: actor.userId,
      snapshot: { body, media_asset_ids: input.mediaAssetIds },
      at: now,
    });
    const moment = await tx.moments.findById(id, actor.userId);
    if (!moment) {
      throw new NotFoundError("Moment");
    }

    return moment;
  });
};
