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
 * provider's logo, read in one statement (findPublicPage; none per item); anything else is 404.
 * A public read: images rejected after the listing took them are left out for everyone (the owner
 * sees them on their own answers and `GET /media/{id}`).
 */
export const getPublicListing = async (
  { repos, clock, objects }: Pick<MarketplaceDeps, "repos" | "clock" | "objects">,
  listingId: string,
): Promise<{ listing: PublicListing } & PublicListingMedia> => {
  const now = clock.now();
  const page = await repos.listings.findPublicPage(listingId, now);
  if (!page) {
    throw new NotFoundError("Listing");
  }
  // Items without an image are absent from the map; an empty gallery or logo is answered without
  // awaiting a signing (a listing without images, the common read, waits for nothing more).
  const menuItemMedia = new Map<string, RecordMedia[]>();
  for (const [itemId, assets] of page.menuItemMedia) {
    menuItemMedia.set(itemId, await recordMedia(objects, assets, now, null));
  }

  return {
    listing: page.listing,
    media: page.media.length === 0 ? [] : await recordMedia(objects, page.media, now, null),
    menuItemMedia,
    providerMedia:
      page.providerMedia.length === 0 ? [] : await recordMedia(objects, page.providerMedia, now, null),
  };
};
