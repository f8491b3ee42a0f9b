import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import {
  applyMediaChange,
  type MediaChange,
  prepareMediaChange,
  type RecordMedia,
  recordMedia,
} from "../media/record-media";
import { fileFilterReport, screenText } from "../moderation/screen-text";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { Listing } from "./marketplace.types";
import { findOwnedListing, requireActiveCategory } from "./ownership";

/**
 * Owner only (404 otherwise); ids in the body are never applied. `mediaAssetIds`, when given,
 * becomes the gallery in that order: images it keeps stay as they are, new ones are checked as on
 * creation, and those it drops are detached and left to the orphan purge.
 */
export const updateListing = async (
  deps: Pick<MarketplaceDeps, "uow" | "repos" | "clock" | "objects" | "ids" | "filters">,
  actor: Actor,
  listingId: string,
  changes: {
    name?: string | undefined;
    description?: string | undefined;
    categoryId?: string | undefined;
    mediaAssetIds?: readonly string[] | undefined;
  },
): Promise<{ listing: Listing; media: RecordMedia[] }> => {
  const { uow, clock } = deps;
  // `hold` saves the write held (held_at): out of every public read until a moderator approves it.
  const screening = await screenText(deps, "listings", {
    name: changes.name,
    description: changes.description,
  });
  const record = { kind: "listing", id: listingId, purpose: "listing" } as const;
  let gallery: MediaChange | undefined;
  if (changes.mediaAssetIds !== undefined) {
    // Ownership is checked again in the transaction; the gallery's checks need the store, outside it.
    await findOwnedListing(deps.repos, actor, listingId, clock.now());
    gallery = await prepareMediaChange(deps, actor, record, changes.mediaAssetIds);
  }

  const { listing, assets } = await uow.run(async (tx) => {
    const now = clock.now();
    await findOwnedListing(tx, actor, listingId, now);
    if (changes.categoryId !== undefined) {
      await requireActiveCategory(tx, changes.categoryId);
    }
    await tx.listings.update(
      listingId,
      {
        name: changes.name,
        description: changes.description,
        categoryId: changes.categoryId,
        hold: screening.action === "hold",
      },
      now,
    );
    const assets = await applyMediaChange(tx, actor, record, gallery, now);
    const updated = await tx.listings.findById(listingId, now);
    if (!updated) {
      throw new NotFoundError("Listing");
    }
    await fileFilterReport(tx, deps, screening, {
      type: "listing",
      id: updated.id,
      ownerId: actor.userId,
      snapshot: { name: updated.public.name, description: updated.public.description },
      at: now,
    });

    return { listing: updated, assets };
  });

  return { listing, media: await recordMedia(deps.objects, assets, clock.now(), actor.userId) };
};
