import type { ListingDto, MenuItemDto, PublicListingDto } from "@agora/contracts/marketplace";
import type { Listing, MenuItem, PublicListing } from "@agora/domain/marketplace/marketplace.types";

export const toMenuItemDto = (item: MenuItem): MenuItemDto => ({
  id: item.id,
  listing_id: item.listingId,
  name: item.name,
  description: item.description,
  price_amount: item.priceAmount,
  currency: item.currency,
  active: item.active,
  created_at: item.createdAt.toISOString(),
  updated_at: item.updatedAt.toISOString(),
});

const toPublicMenuItem = (item: MenuItem) => ({
  id: item.id,
  name: item.name,
  description: item.description,
  price_amount: item.priceAmount,
  currency: item.currency,
});

export const toPublicListingDto = (listing: PublicListing): PublicListingDto => ({
  id: listing.id,
  provider_id: listing.providerId,
  provider_name: listing.providerName,
  name: listing.name,
  category_id: listing.categoryId,
  category_name: listing.categoryName,
  description: listing.description,
  featured: listing.featured,
  menu_items: listing.menuItems.map(toPublicMenuItem),
});

/** The owner's and staff's view: the public fields plus state and subscription. */
export const toListingDto = (listing: Listing, now: Date): ListingDto => ({
  ...toPublicListingDto({
    ...listing,
    featured: listing.featuredUntil !== null && listing.featuredUntil > now,
  }),
  status: listing.status,
  subscription_status: listing.subscriptionStatus,
  subscription_expires_at: listing.subscriptionExpiresAt?.toISOString() ?? null,
  created_at: listing.createdAt.toISOString(),
  updated_at: listing.updatedAt.toISOString(),
});
