import { requireRole } from "../identity/identity.policy";
import type { Actor } from "../shared/actor";
import { NotFoundError, ValidationError } from "../shared/app-error";
import { isUuid } from "../shared/ids";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { MarketplaceRepositories } from "./marketplace.ports";
import type { Listing, ListingSearch, ListingStatus, Page, PublicListing } from "./marketplace.types";
import { findOwnProvider } from "./providers";

const listingNotFound = () => new NotFoundError("Listing");

/** The listing if the caller's provider profile owns it; 404 otherwise (absent or not theirs). */
export const findOwnedListing = async (
  repos: MarketplaceRepositories,
  actor: Actor,
  listingId: string,
): Promise<Listing> => {
  if (!isUuid(listingId)) {
    throw listingNotFound();
  }
  const [own, listing] = await Promise.all([
    findOwnProvider(repos, actor),
    repos.listings.findById(listingId),
  ]);
  if (!own || !listing || listing.providerId !== own.id) {
    throw listingNotFound();
  }

  return listing;
};

const requireActiveCategory = async (repos: MarketplaceRepositories, categoryId: string) => {
  if (!isUuid(categoryId) || !(await repos.catalog.findActiveCategory(categoryId))) {
    throw new ValidationError([{ path: "category_id", message: "must be an active category" }]);
  }
};

/**
 * Creates a draft listing for the caller's own provider profile. The body's provider_id must be
 * that profile: anything else is 404, exactly as for a caller without a profile.
 */
export const createListing = async (
  { uow, clock, ids }: Pick<MarketplaceDeps, "uow" | "clock" | "ids">,
  actor: Actor,
  input: { providerId: string; categoryId: string; name: string; description?: string | undefined },
): Promise<Listing> =>
  uow.run(async (tx) => {
    const own = await findOwnProvider(tx, actor);
    if (!own || own.id !== input.providerId) {
      throw new NotFoundError("Provider profile");
    }
    await requireActiveCategory(tx, input.categoryId);
    const id = ids.next();
    await tx.listings.create(
      {
        id,
        providerId: own.id,
        categoryId: input.categoryId,
        name: input.name,
        description: input.description ?? "",
      },
      clock.now(),
    );
    const created = await tx.listings.findById(id);
    if (!created) {
      throw listingNotFound();
    }

    return created;
  });

/** A publicly visible listing with its active menu items; anything else is 404. */
export const getPublicListing = async (
  { repos, clock }: Pick<MarketplaceDeps, "repos" | "clock">,
  listingId: string,
): Promise<PublicListing> => {
  const listing = isUuid(listingId) ? await repos.listings.findPublic(listingId, clock.now()) : null;
  if (!listing) {
    throw listingNotFound();
  }

  return listing;
};

/** Search over visible listings: featured first, then most recently updated, then id. */
export const searchListings = (
  { repos, clock }: Pick<MarketplaceDeps, "repos" | "clock">,
  search: ListingSearch,
): Promise<Page<PublicListing>> => {
  if (search.categoryId !== undefined && !isUuid(search.categoryId)) {
    return Promise.resolve({ items: [], total: 0 });
  }

  return repos.listings.search(search, clock.now());
};

/** Owner only (404 otherwise); ids in the body are never applied. */
export const updateListing = async (
  { uow, clock }: Pick<MarketplaceDeps, "uow" | "clock">,
  actor: Actor,
  listingId: string,
  changes: { name?: string | undefined; description?: string | undefined; categoryId?: string | undefined },
): Promise<Listing> =>
  uow.run(async (tx) => {
    await findOwnedListing(tx, actor, listingId);
    if (changes.categoryId !== undefined) {
      await requireActiveCategory(tx, changes.categoryId);
    }
    await tx.listings.update(listingId, changes, clock.now());
    const updated = await tx.listings.findById(listingId);
    if (!updated) {
      throw listingNotFound();
    }

    return updated;
  });

/** The owner's delete: the listing becomes `inactive` (kept, no longer public). */
export const deactivateListing = async (
  { uow, clock }: Pick<MarketplaceDeps, "uow" | "clock">,
  actor: Actor,
  listingId: string,
): Promise<Listing> =>
  uow.run(async (tx) => {
    await findOwnedListing(tx, actor, listingId);
    await tx.listings.setStatus(listingId, "inactive", clock.now());
    const updated = await tx.listings.findById(listingId);
    if (!updated) {
      throw listingNotFound();
    }

    return updated;
  });

/** How to reach the provider of a visible listing: the owner's user id and the profile's name. */
export const getListingContact = async (
  deps: Pick<MarketplaceDeps, "repos" | "clock">,
  listingId: string,
): Promise<{ userId: string; displayName: string }> => {
  const listing = await getPublicListing(deps, listingId);
  const provider = await deps.repos.providers.findById(listing.providerId);
  if (!provider) {
    throw listingNotFound();
  }

  return { userId: provider.userId, displayName: provider.displayName };
};

/** The statuses an administrator may set on a listing (CONTRACT.md §4). */
export const adminListingStatuses = ["active", "inactive", "suspended"] as const;
export type AdminListingStatus = (typeof adminListingStatuses)[number];

/** Admin status change of any listing, audited with the status before and after. */
export const changeListingStatus = async (
  { uow, clock }: Pick<MarketplaceDeps, "uow" | "clock">,
  actor: Actor,
  input: { listingId: string; status: AdminListingStatus },
): Promise<Listing> => {
  requireRole(actor, "admin");
  if (!isUuid(input.listingId)) {
    throw listingNotFound();
  }
  const now = clock.now();

  return uow.run(async (tx) => {
    const before = await tx.listings.findById(input.listingId);
    if (!before) {
      throw listingNotFound();
    }
    await tx.listings.setStatus(input.listingId, input.status as ListingStatus, now);
    await tx.audit.record(
      {
        actor,
        action: "listing.status_changed",
        targetType: "listing",
        targetId: input.listingId,
        details: { from: before.status, to: input.status },
      },
      now,
    );

    return { ...before, status: input.status, updatedAt: now };
  });
};
