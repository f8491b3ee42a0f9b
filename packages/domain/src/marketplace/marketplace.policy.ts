import type {
  Listing,
  ListingVisibilityFacts,
  MenuItemOrderabilityFacts,
  ProviderProfile,
} from "./marketplace.types";

/**
 * The clock-free part of public visibility: the listing is active, its subscription is active, its
 * provider is approved, the provider's account is active and no content filter holds it. Mirrors the
 * SQL function of the same name (`listing_public_if_unexpired`, its five-argument signature of
 * migration 20261212000400_listing_held_rule), what the browse counters count; a test proves they
 * agree. (The public partial indexes keep the four-argument rule of 20261203000000, which this
 * one implies.)
 */
export const listingPublicIfUnexpired = (
  listing: Pick<
    ListingVisibilityFacts,
    "status" | "subscriptionStatus" | "providerApproved" | "ownerActive" | "heldAt"
  >,
): boolean =>
  listing.status === "active" &&
  listing.subscriptionStatus === "active" &&
  listing.providerApproved &&
  listing.ownerActive &&
  listing.heldAt === null;

/**
 * A listing is publicly visible at `at` (read, searched, browsed, ordered from) when the clock-free
 * part holds and its subscription is unexpired at `at` (expiry is checked when the listing is
 * read, never stored). Mirrors the SQL function `listing_publicly_visible`, which every public
 * listing read and the order check call; a test proves they agree on every combination.
 */
export const listingPubliclyVisible = (listing: ListingVisibilityFacts, at: Date): boolean =>
  listingPublicIfUnexpired(listing) &&
  listing.subscriptionExpiresAt !== null &&
  listing.subscriptionExpiresAt.getTime() > at.getTime();

/**
 * The item's own part of orderability: it is active, not deleted and no content filter holds it.
 * Mirrors the SQL function of the same name (`menu_item_on_offer`, its three-argument signature of
 * migration 20261212000400_listing_held_rule), by which the public listing reads, whose listing is
 * visible already, list its items.
 */
export const menuItemOnOffer = (item: MenuItemOrderabilityFacts): boolean =>
  item.active && item.deletedAt === null && item.heldAt === null;

/**
 * A menu item can be ordered at `at` (and is shown to the public) when it is on offer and its
 * listing is publicly visible at `at`. Mirrors the SQL function `menu_item_orderable`, which the
 * public item read, the order's write and the media read policy call; a test
 * (packages/db/test/menu-item-orderable.int.test.ts) proves they agree on every combination.
 */
export const menuItemOrderable = (
  item: MenuItemOrderabilityFacts,
  listing: ListingVisibilityFacts,
  at: Date,
): boolean => menuItemOnOffer(item) && listingPubliclyVisible(listing, at);

/**
 * A draft goes public once both halves hold: its provider is approved and its subscription is
 * active and unexpired. Whichever comes second (approval, or the confirmed subscription payment)
 * publishes it.
 */
export const isReadyToPublish = (listing: Listing, provider: ProviderProfile, now: Date): boolean =>
  listing.status === "draft" &&
  provider.approvalStatus === "approved" &&
  listing.subscriptionStatus === "active" &&
  listing.subscriptionExpiresAt !== null &&
  listing.subscriptionExpiresAt > now;

/**
 * A paid subscription runs `days` from the later of now and the current expiry: an early renewal
 * adds to the time left; a lapsed one starts today.
 */
export const nextSubscriptionExpiry = (listing: Listing, days: number, now: Date): Date => {
  const current = listing.subscriptionExpiresAt;
  const from = current && current > now ? current : now;

  return new Date(from.getTime() + days * 24 * 3600_000);
};
