import { NotFoundError } from "../common/app-error";
import { nextSubscriptionExpiry } from "./marketplace.policy";
import type { MarketplaceRepositories } from "./marketplace.transaction";
import { publishReadyListings } from "./publish-ready-listings";

/**
 * A paid subscription period, in the caller's transaction (a confirmed subscription payment): the
 * subscription becomes active and its expiry moves `days` forward from the later of now and the
 * current expiry; a draft of an approved provider is published. Resolves the new expiry and
 * whether it was published.
 */
export const activateSubscription = async (
  tx: Pick<MarketplaceRepositories, "listings" | "providers">,
  listingId: string,
  days: number,
  now: Date,
): Promise<{ expiresAt: Date; published: boolean }> => {
  const listing = await tx.listings.findById(listingId, now);
  const provider = listing ? await tx.providers.findById(listing.providerId) : null;
  if (!listing || !provider) {
    throw new NotFoundError("Listing");
  }
  const expiresAt = nextSubscriptionExpiry(listing, days, now);
  await tx.listings.setSubscription(listing.id, expiresAt, now);
  const published = await publishReadyListings(
    tx,
    provider,
    [{ ...listing, subscriptionStatus: "active", subscriptionExpiresAt: expiresAt }],
    now,
  );

  return { expiresAt, published: published.length > 0 };
};
