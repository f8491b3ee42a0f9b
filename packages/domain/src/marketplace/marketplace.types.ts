import type { PublicListingDto } from "@agora/contracts/marketplace";
import type { MediaAsset } from "../media/media.types";

export type Service = { id: string; name: string; description: string };
export type Category = { id: string; serviceId: string; name: string };

/**
 * A provider profile's approval: `pending` until an administrator approves it; `withdrawn` when its
 * owner's role is set back to `member` (every provider path then refuses the owner, and its
 * listings are not public) until an administrator approves it again.
 */
export const approvalStatuses = ["pending", "approved", "withdrawn"] as const;
export type ApprovalStatus = (typeof approvalStatuses)[number];

export type ProviderProfile = {
  id: string;
  userId: string;
  displayName: string;
  bio: string;
  phone: string | null;
  approvalStatus: ApprovalStatus;
  availability: "offline" | "online";
  createdAt: Date;
};

export const listingStatuses = ["draft", "active", "inactive", "suspended"] as const;
export type ListingStatus = (typeof listingStatuses)[number];

export const subscriptionStatuses = ["inactive", "active"] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

/**
 * What public visibility is decided from, as the listing row holds it: the provider's approval and
 * whether the provider's account is active are mirrored on the listing (kept by the use cases that
 * change them), so the rule, its SQL function and its partial indexes stay on one table.
 */
export type ListingVisibilityFacts = {
  status: ListingStatus;
  subscriptionStatus: SubscriptionStatus;
  subscriptionExpiresAt: Date | null;
  providerApproved: boolean;
  ownerActive: boolean;
  /** When a content filter held the listing (until a moderator approves it); null when not held. */
  heldAt: Date | null;
};

/**
 * The item's own facts of orderability, as the menu_items row holds them (with its listing's
 * ListingVisibilityFacts, what menuItemOrderable decides from). What an order copies (name, price,
 * currency) is not among them: every row has it.
 */
export type MenuItemOrderabilityFacts = {
  active: boolean;
  /** When the owner deleted the item (kept for the orders that name it); null while it exists. */
  deletedAt: Date | null;
  /** When a content filter held the item (until a moderator approves it); null when not held. */
  heldAt: Date | null;
};

export type MenuItem = {
  id: string;
  listingId: string;
  name: string;
  description: string;
  priceAmount: number;
  currency: string;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
};

/**
 * What the public sees of a visible listing (read on every browse and search: nothing more): the
 * contract's public listing, as the database builds it (the one JSON builder, `publicListingJson`
 * in packages/db/src/repositories/marketplace/listing-queries.ts) and the API answers it, untouched.
 * A public field is declared in the contract and read there; nothing here changes.
 */
export type PublicListing = PublicListingDto;

/** A listing as its owner and staff see it: what the use cases decide with, and its public fields. */
export type Listing = {
  id: string;
  providerId: string;
  status: ListingStatus;
  subscriptionStatus: SubscriptionStatus;
  subscriptionExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /**
   * Its public fields as a public read builds them (its items on offer, `featured` at the time of
   * the read), whatever its status: the owner's answer carries them.
   */
  public: PublicListing;
};

/**
 * A public listing with its images, each list in order: its gallery, its active items' images (by
 * item id; an item without one is absent) and its provider's logo.
 */
export type PublicListingPage = {
  listing: PublicListing;
  media: MediaAsset[];
  menuItemMedia: Map<string, MediaAsset[]>;
  providerMedia: MediaAsset[];
};

export type ListingSearch = {
  q: string | undefined;
  categoryId: string | undefined;
  limit: number;
  offset: number;
};

/** A menu item that may be ordered now: active, of a publicly visible listing. */
export type PublicMenuItem = {
  menuItemId: string;
  listingId: string;
  providerId: string;
  /** The user who owns the provider profile. */
  providerUserId: string;
  name: string;
  priceAmount: number;
  currency: string;
};

/** Revenue a provider records by hand (money taken outside the app). */
export type ManualSale = {
  id: string;
  providerId: string;
  amount: number;
  currency: string;
  description: string;
  customerLabel: string | null;
  occurredAt: Date;
  createdAt: Date;
};

/** A row of the provider's revenue: a manual sale, or the primary sale of a completed order. */
export type NewSale = Omit<ManualSale, "customerLabel"> & {
  source: "manual" | "order";
  orderId: string | null;
  customerLabel: string | null;
};

/** The provider dashboard read model: every figure is an SQL aggregate over the owner's rows. */
export type ProviderDashboard = {
  providerId: string;
  approvalStatus: ApprovalStatus;
  listingsByStatus: Record<ListingStatus, number>;
  ordersByStatus: Record<string, number>;
  revenue30d: Array<{ currency: string; orders: number; manualSales: number; total: number }>;
  pendingPayments: number;
};
