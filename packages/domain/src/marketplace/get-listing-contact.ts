import { NotFoundError } from "../common/app-error";
import type { MarketplaceDeps } from "./marketplace.deps";

/** How to reach the provider of a visible listing: the owner's user id and the profile's name. */
export const getListingContact = async (
  deps: Pick<MarketplaceDeps, "repos" | "clock">,
  listingId: string,
): Promise<{ userId: string; displayName: string }> => {
  const listing = await deps.repos.listings.findPublic(listingId, deps.clock.now());
  if (!listing) {
    throw new NotFoundError("Listing");
  }
  const provider = await deps.repos.providers.findById(listing.provider_id);
  if (!provider) {
    throw new NotFoundError("Listing");
  }

  return { userId: provider.userId, displayName: provider.displayName };
};
