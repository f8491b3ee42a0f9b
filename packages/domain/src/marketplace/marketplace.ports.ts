import type { Role } from "../shared/actor";
import type { AuditLog } from "../shared/audit";
import type {
  Category,
  Listing,
  ListingSearch,
  ListingStatus,
  ManualSale,
  MenuItem,
  Page,
  ProviderDashboard,
  ProviderProfile,
  PublicListing,
  Service,
} from "./marketplace.types";

export interface CatalogRepository {
  listServices(): Promise<Service[]>;
  listCategories(): Promise<Category[]>;
  findActiveCategory(id: string): Promise<Category | null>;
}

export interface ProviderRepository {
  findById(id: string): Promise<ProviderProfile | null>;
  findByUserId(userId: string): Promise<ProviderProfile | null>;
  /** Inserts; false when the user already has a profile. */
  create(profile: ProviderProfile, at: Date): Promise<boolean>;
  /** Updates the given fields; a new display name is carried into the listings' search text. */
  update(
    id: string,
    changes: {
      displayName?: string | undefined;
      bio?: string | undefined;
      phone?: string | null | undefined;
    },
    at: Date,
  ): Promise<ProviderProfile | null>;
  /** pending → approved; null when absent, "already" when it was approved before. */
  approve(id: string, at: Date): Promise<ProviderProfile | "already" | null>;
  /** Promotes the owner to provider when a member (staff roles are kept); returns the role before. */
  promoteOwner(userId: string, at: Date): Promise<Role | null>;
}

export type NewListing = {
  id: string;
  providerId: string;
  categoryId: string;
  name: string;
  description: string;
};

export interface ListingRepository {
  create(listing: NewListing, at: Date): Promise<void>;
  /** Owner/staff view (any status), with active menu items. */
  findById(id: string): Promise<Listing | null>;
  /** Public view: null unless active, subscribed, unexpired at `now` and the provider approved. */
  findPublic(id: string, now: Date): Promise<PublicListing | null>;
  search(search: ListingSearch, now: Date): Promise<Page<PublicListing>>;
  update(
    id: string,
    changes: { name?: string | undefined; description?: string | undefined; categoryId?: string | undefined },
    at: Date,
  ): Promise<void>;
  setStatus(id: string, status: ListingStatus, at: Date): Promise<void>;
  /** Draft listings of the provider whose subscription is active and unexpired become active. */
  publishPaidDrafts(providerId: string, now: Date): Promise<string[]>;
  /** Bumps updated_at (a menu change is a change of the listing). */
  touch(id: string, at: Date): Promise<void>;
}

export interface MenuItemRepository {
  create(item: MenuItem): Promise<void>;
  /** Not deleted; with the listing it belongs to. */
  findById(id: string): Promise<(MenuItem & { providerId: string }) | null>;
  update(
    id: string,
    changes: {
      name?: string | undefined;
      description?: string | undefined;
      priceAmount?: number | undefined;
      currency?: string | undefined;
      active?: boolean | undefined;
    },
    at: Date,
  ): Promise<MenuItem | null>;
  markDeleted(id: string, at: Date): Promise<void>;
}

export interface SaleRepository {
  createManual(sale: ManualSale): Promise<void>;
}

export interface DashboardReadModel {
  forProvider(provider: ProviderProfile, now: Date): Promise<ProviderDashboard>;
}

export type MarketplaceRepositories = {
  catalog: CatalogRepository;
  providers: ProviderRepository;
  listings: ListingRepository;
  menuItems: MenuItemRepository;
  sales: SaleRepository;
  dashboard: DashboardReadModel;
  audit: AuditLog;
};
