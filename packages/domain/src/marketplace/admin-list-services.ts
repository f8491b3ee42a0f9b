import type { CollectionFilter } from "../administration/administration.types";
import type { Actor } from "../common/actor";
import type { Page, PageRequest } from "../common/page";
import { requireRole } from "../identity/identity.policy";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { Service } from "./marketplace.types";

/** Every platform service, active or not, by name (admins only). */
export const adminListServices = (
  { repos }: Pick<MarketplaceDeps, "repos">,
  actor: Actor,
  filter: CollectionFilter<"active" | "inactive">,
  page: PageRequest,
): Promise<Page<Service & { active: boolean }>> => {
  requireRole(actor, "admin");

  return repos.catalog.findServicesPage(
    { q: filter.q, active: filter.status === undefined ? undefined : filter.status === "active" },
    page,
  );
};
