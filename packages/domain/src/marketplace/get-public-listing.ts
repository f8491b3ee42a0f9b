import { NotFoundError } from "../common/app-error";
import { type RecordMedia, recordMedia } from "../media/record-media";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { PublicListing } from "./marketplace.types";

/** A public listing's images: its gallery, each active menu item's image, its provider's logo. */
export type PublicListingMedia = {
  media: RecordMedia[];
  /** By menu item id; an item without an image is absent. */
  menuItemMedia: Map<string, RecordMedia[]>;
  providerMedia: RecordMedia[];
};

/**
 * A publicly visible listing with its active menu items, its gallery, the items' images and the
 * provider's logo (the images in one statement, none per item); anything else is 404.
 */
export const getPublicListing = async (
  { repos, clock, objects }: Pick<MarketplaceDeps, "repos" | "clock" | "objects">,
  listingId: string,
): Promise<{ listing: PublicListing } & PublicListingMedia> => {
  const now = clock.now();
  const listing = await repos.listings.findPublic(listingId, now);
  if (!listing) {
    throw new NotFoundError("Listing");
  }
  const { gallery, menuItems, logo } = await repos.media.findOnListingPage(
    listing.id,
    listing.providerId,
    listing.menuItems.map((item) => item.id),
  );
  const menuItemMedia = new Map<string, RecordMedia[]>();
  for (const [itemId, assets] of menuItems) {
    menuItemMedia.set(itemId, await recordMedia(objects, assets, now));
  }

  return {
    listing,
    media: await recordMedia(objects, gallery, now),
    menuItemMedia,
    providerMedia: await recordMedia(objects, logo, now),
  };
};
