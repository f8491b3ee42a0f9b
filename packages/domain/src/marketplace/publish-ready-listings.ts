import { isReadyToPublish } from "./marketplace.policy";
import type { MarketplaceRepositories } from "./marketplace.transaction";
import type { Listing, ProviderProfile } from "./marketplace.types";

/**
 * Publishes, in the caller's transaction, those of `listings` (the provider's) that are ready
 * (see isReadyToPublish); resolves the ids published.
 */
export const publishReadyListings = async (
  tx: Pick<MarketplaceRepositories, "listings">,
  provider: ProviderProfile,
  listings: readonly Listing[],
  now: Date,
): Promise<string[]> => {
  const ready = listings.filter((listing) => isReadyToPublish(listing, provider, now));
  for (const listing of ready) {
    await tx.listings.setStatus(listing.id, "active", now);
  }

  return ready.map((listing) => listing.id);
};
