import { NotFoundError } from "../shared/app-error";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { PublicListing } from "./marketplace.types";

/** A publicly visible listing with its active menu items; anything else is 404. */
export const getPublicListing = async (
  { repos, clock }: Pick<MarketplaceDeps, "repos" | "clock">,
  listingId: string,
): Promise<PublicListing> => {
  const listing = await repos.listings.findPublic(listingId, clock.now());
  if (!listing) {
    throw new NotFoundError("Listing");
  }

  return listing;
};
