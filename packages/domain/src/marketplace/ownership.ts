import type { Actor } from "../common/actor";
import { ForbiddenError, NotFoundError, ValidationError } from "../common/app-error";
import { requireRole } from "../identity/identity.policy";
import type { MarketplaceRepositories } from "./marketplace.transaction";
import type { Listing, MenuItem, ProviderProfile } from "./marketplace.types";
import { requireProviderStanding } from "./provider-standing";

/**
 * The caller's own provider profile, or null; 403 when its approval was withdrawn (the owner was
 * demoted to member: provider-standing.ts). Every provider path finds the caller's profile here.
 */
export const findOwnProvider = async (
  repos: Pick<MarketplaceRepositories, "providers">,
  actor: Actor,
): Promise<ProviderProfile | null> =>
  requireProviderStanding(await repos.providers.findByUserId(actor.userId));

/** The listing if the caller's provider profile owns it; 404 otherwise (absent or not theirs). */
export const findOwnedListing = async (
  repos: Pick<MarketplaceRepositories, "providers" | "listings">,
  actor: Actor,
  listingId: string,
  now: Date,
): Promise<Listing> => {
  const [own, listing] = await Promise.all([
    findOwnProvider(repos, actor),
    repos.listings.findById(listingId, now),
  ]);
  if (!own || !listing || listing.providerId !== own.id) {
    throw new NotFoundError("Listing");
  }

  return listing;
};

/** A menu item of one of the caller's listings; 404 otherwise. */
export const findOwnedItem = async (
  repos: Pick<MarketplaceRepositories, "providers" | "menuItems">,
  actor: Actor,
  itemId: string,
): Promise<MenuItem & { providerId: string }> => {
  const [own, item] = await Promise.all([findOwnProvider(repos, actor), repos.menuItems.findById(itemId)]);
  if (!own || !item || item.providerId !== own.id) {
    throw new NotFoundError("Menu item");
  }

  return item;
};

/**
 * Providers only: the caller must hold the provider role and own a profile whose approval was not
 * withdrawn (403 otherwise).
 */
export const requireOwnProviderRole = async (
  repos: Pick<MarketplaceRepositories, "providers">,
  actor: Actor,
): Promise<ProviderProfile> => {
  requireRole(actor, "provider");
  const own = await findOwnProvider(repos, actor);
  if (!own) {
    throw new ForbiddenError("This needs a provider profile.");
  }

  return own;
};

/** An active category (422 on `category_id` otherwise). */
export const requireActiveCategory = async (
  repos: Pick<MarketplaceRepositories, "catalog">,
  categoryId: string,
) => {
  if (!(await repos.catalog.findActiveCategory(categoryId))) {
    throw new ValidationError([{ path: "category_id", message: "must be an active category" }]);
  }
};
