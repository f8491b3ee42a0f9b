import type { Listing, ProviderProfile } from "./marketplace.types";

/**
 * A draft goes public once both halves hold (SPEC, listing states): its provider is approved and
 * its subscription is active and unexpired. Whichever comes second (approval, or the confirmed
 * subscription payment) publishes it.
 */
export const isReadyToPublish = (listing: Listing, provider: ProviderProfile, now: Date): boolean =>
  listing.status === "draft" &&
  provider.approvalStatus === "approved" &&
  listing.subscriptionStatus === "active" &&
  listing.subscriptionExpiresAt !== null &&
  listing.subscriptionExpiresAt > now;

/**
 * A paid subscription runs `days` from the later of now and the current expiry (SPEC, payment
 * states: an early renewal adds to the time left; a lapsed one starts today).
 */
export const nextSubscriptionExpiry = (listing: Listing, days: number, now: Date): Date => {
  const current = listing.subscriptionExpiresAt;
  const from = current && current > now ? current : now;

  return new Date(from.getTime() + days * 24 * 3600_000);
};
