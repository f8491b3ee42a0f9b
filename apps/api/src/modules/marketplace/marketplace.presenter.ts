import type {
  ListingDto,
  MenuItemDto,
  ProviderDto,
  PublicListingDetailDto,
  PublicListingDto,
} from "@agora/contracts/marketplace";
import type { PublicListingMedia } from "@agora/domain/marketplace/get-public-listing";
import type {
  ListedMenuItem,
  Listing,
  ManualSale,
  MenuItem,
  ProviderDashboard,
  ProviderProfile,
  PublicListing,
} from "@agora/domain/marketplace/marketplace.types";
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

const toPublicMenuItem = (item: ListedMenuItem) => ({
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

/**
 * The public listing page: the public fields, each item with its image, the gallery and the
 * provider's logo, built in one pass (no intermediate DTO copied again), in the document's order.
 */
export const toPublicListingDetailDto = (
  listing: PublicListing,
  media: PublicListingMedia,
): PublicListingDetailDto => ({
  id: listing.id,
  provider_id: listing.providerId,
  provider_name: listing.providerName,
  name: listing.name,
  category_id: listing.categoryId,
  category_name: listing.categoryName,
  description: listing.description,
  featured: listing.featured,
  menu_items: listing.menuItems.map((item) => ({
    id: item.id,
    name: item.name,
    description: item.description,
    price_amount: item.priceAmount,
    currency: item.currency,
    media: media.menuItemMedia.get(item.id)?.map(toMediaItemDto) ?? [],
  })),
  media: media.media.map(toMediaItemDto),
  provider_media: media.providerMedia.map(toMediaItemDto),
});

/** The owner's and staff's view: the public fields plus state and subscription. */
export const toListingDto = (listing: Listing): ListingDto => ({
  ...toPublicListingDto(listing),
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
