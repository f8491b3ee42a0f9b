import type { CollectionFilter } from "../administration/administration.types";
import type { Actor } from "../common/actor";
import type { Page, PageRequest } from "../common/page";
import { requireRole } from "../identity/identity.policy";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { Listing, ListingStatus } from "./marketplace.types";

/** Every listing whatever its status, newest first (admins only): an inactive one included. */
export const adminListListings = (
  { repos, clock }: Pick<MarketplaceDeps, "repos" | "clock">,
  actor: Actor,
  filter: CollectionFilter<ListingStatus>,
  page: PageRequest,
): Promise<Page<Listing>> => {
  requireRole(actor, "admin");

  return repos.listings.findPage(filter, page, clock.now());
};
