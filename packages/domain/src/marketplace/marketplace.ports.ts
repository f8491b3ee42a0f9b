import type { Page, PageRequest } from "../common/page";
import type {
  Category,
  Listing,
  ListingSearch,
  ListingStatus,
  MenuItem,
  NewSale,
  ProviderDashboard,
  ProviderProfile,
  PublicListing,
  PublicListingPage,
  PublicMenuItem,
  Service,
} from "./marketplace.types";

export interface CatalogRepository {
  listServices(): Promise<Service[]>;
  /** Of `ids`, the ones naming a service (active or not). */
  findExistingServiceIds(ids: readonly string[]): Promise<string[]>;
  /** Every service, active or not, by name; `q` matches a substring of name or description. */
  findServicesPage(
    filter: { q?: string | undefined; active?: boolean | undefined },
    page: PageRequest,
  ): Promise<Page<Service & { active: boolean }>>;
  listCategories(): Promise<Category[]>;
  findActiveCategory(id: string): Promise<Category | null>;
}

export interface ProviderRepository {
  findById(id: string): Promise<ProviderProfile | null>;
  findByUserId(userId: string): Promise<ProviderProfile | null>;
  /** Inserts; false when the user already has a profile. */
  create(profile: ProviderProfile, at: Date): Promise<boolean>;
  /**
   * Updates the given fields of the profile only (its listings' copy of the display name is the
   * use case's to carry: ListingRepository.setProviderName).
   */
  update(
    id: string,
    changes: {
      displayName?: string | undefined;
      bio?: string | undefined;
      phone?: string | null | undefined;
    },
    at: Date,
  ): Promise<ProviderProfile | null>;
  /**
   * pending or withdrawn → approved (compare-and-set: of two concurrent approvals one wins); null
   * when the profile is absent or already approved. The profile only: the use case mirrors the
   * approval on the listings (ListingRepository.markProviderApproved).
   */
  approve(id: string, at: Date): Promise<ProviderProfile | null>;
  /**
   * The user's approved profile → withdrawn (its owner was demoted to member); null when the user
   * has no approved profile. The profile only: the use case mirrors it on the listings
   * (ListingRepository.markProviderWithdrawn).
   */
  withdrawByUserId(userId: string, at: Date): Promise<ProviderProfile | null>;
  /** Newest first; `q` matches a substring of the display name; `status` the approval status. */
  findPage(
    filter: { q?: string | undefined; status?: ProviderProfile["approvalStatus"] | undefined },
    page: PageRequest,
  ): Promise<Page<ProviderProfile>>;
}

export type NewListing = {
  id: string;
  providerId: string;
  categoryId: string;
  name: string;
  description: string;
  /** Set when a content filter holds the listing (out of every public read until a moderator approves it). */
  heldAt?: Date | null;
};

export interface ListingRepository {
  create(listing: NewListing, at: Date): Promise<void>;
  /** Owner/staff view (any status), with active menu items; `featured` as of `now`. */
  findById(id: string, now: Date): Promise<Listing | null>;
  /** The provider's listings (owner view), oldest first. */
  listByProvider(providerId: string, now: Date): Promise<Listing[]>;
  /**
   * Every listing whatever its status (owner view), newest first; `q` matches a substring of the
   * name, description or provider name; `status` the listing status.
   */
  findPage(
    filter: { q?: string | undefined; status?: ListingStatus | undefined },
    page: PageRequest,
    now: Date,
  ): Promise<Page<Listing>>;
  /** Public view: null unless publicly visible at `now` (listingPubliclyVisible). */
  findPublic(id: string, now: Date): Promise<PublicListing | null>;
  /** The public listing page: findPublic's listing with its images, in one statement. */
  findPublicPage(id: string, now: Date): Promise<PublicListingPage | null>;
  search(search: ListingSearch, now: Date): Promise<Page<PublicListing>>;
  /**
   * Updates the given fields; with `hold`, a content filter holds the listing (held_at set, kept
   * from an earlier hold); without, held_at stays as it is (only a moderator releases a hold).
   */
  update(
    id: string,
    changes: {
      name?: string | undefined;
      description?: string | undefined;
      categoryId?: string | undefined;
      hold?: boolean | undefined;
    },
    at: Date,
  ): Promise<void>;
  setStatus(id: string, status: ListingStatus, at: Date): Promise<void>;
  /** The subscription becomes active until `expiresAt`. */
  setSubscription(id: string, expiresAt: Date, at: Date): Promise<void>;
  /** Bumps updated_at (a menu change is a change of the listing). */
  touch(id: string, at: Date): Promise<void>;
  /**
   * The provider's listings record that it is approved (`providerApproved`, one of the facts of
   * listingPubliclyVisible, mirrored so the rule stays on the listing). Called by the use case that
   * approves the provider, in its transaction.
   */
  markProviderApproved(providerId: string): Promise<void>;
  /**
   * The provider's listings record that its approval was withdrawn: they leave every public read
   * (their status is kept, so a new approval brings them back). Called by the use case that
   * demotes the owner, in its transaction.
   */
  markProviderWithdrawn(providerId: string): Promise<void>;
  /**
   * The provider's listings' search text takes its new display name (listing search matches the
   * provider's name). Called by the use case that renames the provider, in its transaction.
   */
  setProviderName(providerId: string, displayName: string): Promise<void>;
  /**
   * The listings of the provider owned by `userId` record whether that account is active
   * (`ownerActive`, one of the facts of listingPubliclyVisible). Called by every use case that
   * changes an account's status (suspension, reactivation, moderation, deletion), in its transaction.
   */
  setOwnerActive(userId: string, active: boolean): Promise<void>;
}

export interface MenuItemRepository {
  /** Inserts; `heldAt` set when a content filter holds the item (out of the public menu, not orderable). */
  create(item: MenuItem, heldAt?: Date | null): Promise<void>;
  /** Not deleted; with the listing it belongs to. */
  findById(id: string): Promise<(MenuItem & { providerId: string }) | null>;
  /** An active, undeleted item of a listing that is publicly visible at `now`; else null. */
  findPublicById(id: string, now: Date): Promise<PublicMenuItem | null>;
  update(
    id: string,
    changes: {
      name?: string | undefined;
      description?: string | undefined;
      priceAmount?: number | undefined;
      currency?: string | undefined;
      active?: boolean | undefined;
      /** A content filter holds the item (held_at set, kept from an earlier hold); without, it stays as it is. */
      hold?: boolean | undefined;
    },
    at: Date,
  ): Promise<MenuItem | null>;
  markDeleted(id: string, at: Date): Promise<void>;
}

export interface SaleRepository {
  /** Inserts; false when the order already has its primary sale (one per order). */
  create(sale: NewSale): Promise<boolean>;
}

export interface DashboardReadModel {
  forProvider(provider: ProviderProfile, now: Date): Promise<ProviderDashboard>;
}
