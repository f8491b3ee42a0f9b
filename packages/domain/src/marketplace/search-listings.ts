import type { Page } from "../shared/page";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { ListingSearch, PublicListing } from "./marketplace.types";

/** Search over visible listings: featured first, then most recently updated, then id. */
export const searchListings = (
  { repos, clock }: Pick<MarketplaceDeps, "repos" | "clock">,
  search: ListingSearch,
): Promise<Page<PublicListing>> => repos.listings.search(search, clock.now());
