import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import { attachRecordMedia, prepareRecordMedia, type RecordMedia, recordMedia } from "../media/record-media";
import { galleryField } from "./create-listing";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { Listing } from "./marketplace.types";
import { findOwnedListing, requireActiveCategory } from "./ownership";

/**
 * Owner only (404 otherwise); ids in the body are never applied. `mediaAssetIds`, when given,
 * becomes the gallery in that order: images it keeps stay as they are, new ones are checked as on
 * creation, and those it drops are detached and left to the orphan purge.
 */
export const updateListing = async (
  deps: Pick<MarketplaceDeps, "uow" | "repos" | "clock" | "objects">,
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
  const ids = changes.mediaAssetIds;
  let fresh: string[] = [];
  if (ids !== undefined) {
    // Ownership is checked again in the transaction; the gallery's checks need the store, outside it.
    await findOwnedListing(deps.repos, actor, listingId, clock.now());
    const held = (await deps.repos.media.findOnListing(listingId)).map((asset) => asset.id);
    fresh = await prepareRecordMedia(deps, actor, { ids, held, purpose: "listing", field: galleryField });
  }

  const { listing, assets } = await uow.run(async (tx) => {
    const now = clock.now();
    await findOwnedListing(tx, actor, listingId, now);
    if (changes.categoryId !== undefined) {
      await requireActiveCategory(tx, changes.categoryId);
    }
    await tx.listings.update(
      listingId,
      { name: changes.name, description: changes.description, categoryId: changes.categoryId },
      now,
    );
    if (ids !== undefined) {
      const held = (await tx.media.findOnListing(listingId, { lock: true })).map((asset) => asset.id);
      await attachRecordMedia(
        tx,
        actor,
        { fresh, ids, held },
        { purpose: "listing", at: now, field: galleryField },
      );
      await tx.media.setListingMedia(listingId, ids);
    }
    const updated = await tx.listings.findById(listingId, now);
    if (!updated) {
      throw new NotFoundError("Listing");
    }

    return { listing: updated, assets: await tx.media.findOnListing(listingId) };
  });

  return { listing, media: await recordMedia(deps.objects, assets, clock.now()) };
};
