import type { CollectionFilter } from "../administration/administration.types";
import type { Actor } from "../common/actor";
import type { Page, PageRequest } from "../common/page";
import { requireRole } from "../identity/identity.policy";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { ApprovalStatus, ProviderProfile } from "./marketplace.types";

/** Every provider profile, newest first (admins only). */
export const adminListProviders = (
  { repos }: Pick<MarketplaceDeps, "repos">,
  actor: Actor,
  filter: CollectionFilter<ApprovalStatus>,
  page: PageRequest,
): Promise<Page<ProviderProfile>> => {
  requireRole(actor, "admin");

  return repos.providers.findPage(filter, page);
};
