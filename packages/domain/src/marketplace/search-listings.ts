import type { Page } from "../common/page";
import { type RecordMedia, recordMedia } from "../media/record-media";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { ListingSearch, PublicListing } from "./marketplace.types";

/**
 * Search over visible listings: featured first, then most recently updated, then id. Each
 * listing's cover (the first image of its gallery that processing did not reject) is read for the
 * whole page in one statement, after the page (which may come from the listing cache): by listing
 * id, absent without a gallery.
 */
export const searchListings = async (
  { repos, clock, objects }: Pick<MarketplaceDeps, "repos" | "clock" | "objects">,
  search: ListingSearch,
): Promise<Page<PublicListing> & { covers: Map<string, RecordMedia> }> => {
  const now = clock.now();
  const page = await repos.listings.search(search, now);
  const covers = new Map<string, RecordMedia>();
  if (page.items.length === 0) {
    return { ...page, covers };
  }
  const found = await repos.media.findOnRecords(
    "listing",
    page.items.map((listing) => listing.id),
    { first: true },
  );
  // Each cover as the public reads it (showsOnRecord).
  await Promise.all(
    [...found].map(async ([listingId, assets]) => {
      const [cover] = await recordMedia(objects, assets.slice(0, 1), now, null);
      if (cover) {
        covers.set(listingId, cover);
      }
    }),
  );

  return { ...page, covers };
};
