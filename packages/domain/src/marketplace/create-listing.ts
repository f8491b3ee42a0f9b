import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import { applyMediaChange, prepareMediaChange, type RecordMedia, recordMedia } from "../media/record-media";
import { fileFilterReport, screenText } from "../moderation/screen-text";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { Listing } from "./marketplace.types";
import { findOwnProvider, requireActiveCategory } from "./ownership";

/**
 * Creates a draft listing for the caller's own provider profile. The body's provider_id must be
 * that profile: anything else is 404, exactly as for a caller without a profile. Its gallery:
 * up to 10 of the caller's own assets uploaded for `listing`, confirmed and processed (422, or 409
 * while processing), in order.
 */
export const createListing = async (
  deps: Pick<MarketplaceDeps, "uow" | "repos" | "clock" | "ids" | "objects" | "filters">,
  actor: Actor,
  input: {
    providerId: string;
    categoryId: string;
    name: string;
    description?: string | undefined;
    mediaAssetIds?: readonly string[] | undefined;
  },
): Promise<{ listing: Listing; media: RecordMedia[] }> => {
  // `hold` saves the write held (held_at): out of every public read until a moderator approves it.
  const screening = await screenText(deps, "listings", { name: input.name, description: input.description });
  const gallery = await prepareMediaChange(
    deps,
    actor,
    { kind: "listing", id: null, purpose: "listing" },
    input.mediaAssetIds,
  );
  const { uow, clock } = deps;

  const { listing, assets } = await uow.run(async (tx) => {
    const own = await findOwnProvider(tx, actor);
    if (!own || own.id !== input.providerId) {
      throw new NotFoundError("Provider profile");
    }
    await requireActiveCategory(tx, input.categoryId);
    const id = deps.ids.next();
    const now = clock.now();
    await tx.listings.create(
      {
        id,
        providerId: own.id,
        categoryId: input.categoryId,
        name: input.name,
        description: input.description ?? "",
        heldAt: screening.action === "hold" ? now : null,
      },
      now,
    );
    await fileFilterReport(tx, deps, screening, {
      type: "listing",
      id,
      ownerId: actor.userId,
      snapshot: { name: input.name, description: input.description ?? "" },
      at: now,
    });
    const assets = await applyMediaChange(
      tx,
      actor,
      { kind: "listing", id, purpose: "listing" },
      gallery,
      now,
    );
    const created = await tx.listings.findById(id, now);
    if (!created) {
      throw new NotFoundError("Listing");
    }

    return { listing: created, assets };
  });

  return { listing, media: await recordMedia(deps.objects, assets, clock.now(), actor.userId) };
};
