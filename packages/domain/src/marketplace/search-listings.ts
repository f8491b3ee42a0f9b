import type { Page } from "../common/page";
import { type RecordMedia, recordMedia } from "../media/record-media";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { ListingSearch, PublicListing } from "./marketplace.types";

/**
 * Search over visible listings: featured first, then most recently updated, then id. Each
 * listing's cover (the first image of its gallery) is read for the whole page in one statement,
 * after the page (which may come from the listing cache): by listing id, absent without a gallery.
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
  const firsts = [...found].flatMap(([listingId, assets]) =>
    assets[0] ? [[listingId, assets[0]] as const] : [],
  );
  const signed = await recordMedia(
    objects,
    firsts.map(([, asset]) => asset),
    now,
  );
  firsts.forEach(([listingId], index) => {
    const cover = signed[index];
    if (cover) {
      covers.set(listingId, cover);
    }
  });

  return { ...page, covers };
};
