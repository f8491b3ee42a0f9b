import type {
  ListingDto,
  ListingSearchItemDto,
  MenuItemDto,
  ProviderDto,
  PublicListingDetailDto,
} from "@agora/contracts/marketplace";
import type { PublicListingMedia } from "@agora/domain/marketplace/get-public-listing";
import type {
  Listing,
  ManualSale,
  MenuItem,
  ProviderDashboard,
  ProviderProfile,
  PublicListing,
} from "@agora/domain/marketplace/marketplace.types";
import type { RecordMedia } from "@agora/domain/media/record-media";
import { toMediaItemDto } from "../media/media.presenter";

export const toMenuItemDto = (item: MenuItem): Omit<MenuItemDto, "media"> => ({
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

/**
 * A listing in search results: the public listing, then its cover (the gallery's first image).
 * The listing answers below pass a public listing (PublicListing: the contract's fields as the
 * database's one JSON builder built them) through as it is, in its order, and add only what is not
 * one of its fields (images, the owner's state): a public field needs nothing here.
 */
export const toListingSearchItemDto = (
  listing: PublicListing,
  cover: RecordMedia | undefined,
): ListingSearchItemDto => ({ ...listing, cover: cover ? toMediaItemDto(cover) : null });

/**
 * The public listing page: the public listing, each item with its image, the gallery and the
 * provider's logo, built in one pass (no intermediate DTO copied again), in the document's order.
 */
export const toPublicListingDetailDto = (
  listing: PublicListing,
  media: PublicListingMedia,
): PublicListingDetailDto => ({
  ...listing,
  menu_items: listing.menu_items.map((item) => ({
    ...item,
    media: media.menuItemMedia.get(item.id)?.map(toMediaItemDto) ?? [],
  })),
  media: media.media.map(toMediaItemDto),
  provider_media: media.providerMedia.map(toMediaItemDto),
});

/** The owner's and staff's view: the public fields plus state and subscription. */
export const toListingDto = (listing: Listing): ListingDto => ({
  ...listing.public,
  status: listing.status,
  subscription_status: listing.subscriptionStatus,
  subscription_expires_at: listing.subscriptionExpiresAt?.toISOString() ?? null,
  created_at: listing.createdAt.toISOString(),
  updated_at: listing.updatedAt.toISOString(),
});

export const toProviderDto = (provider: ProviderProfile): ProviderDto => ({
  id: provider.id,
  user_id: provider.userId,
  display_name: provider.displayName,
  bio: provider.bio,
  phone: provider.phone,
  approval_status: provider.approvalStatus,
  availability: provider.availability,
  created_at: provider.createdAt.toISOString(),
});

export const toManualSaleDto = (sale: ManualSale) => ({
  id: sale.id,
  provider_id: sale.providerId,
  amount: sale.amount,
  currency: sale.currency,
  description: sale.description,
  customer_label: sale.customerLabel,
  occurred_at: sale.occurredAt.toISOString(),
  created_at: sale.createdAt.toISOString(),
});

export const toDashboardDto = (dashboard: ProviderDashboard) => ({
  provider_id: dashboard.providerId,
  approval_status: dashboard.approvalStatus,
  listings_by_status: dashboard.listingsByStatus,
  orders_by_status: dashboard.ordersByStatus,
  revenue_30d: dashboard.revenue30d.map((entry) => ({
    currency: entry.currency,
    orders: entry.orders,
    manual_sales: entry.manualSales,
    total: entry.total,
  })),
  pending_payments: dashboard.pendingPayments,
});
