import type { MarketplaceDeps } from "@agora/domain/marketplace/marketplace.deps";
import type { Area } from "../area";
import { catalogRoutes } from "./catalog.routes";
import { listingRoutes } from "./listings.routes";
import { marketplaceAdminKinds, marketplaceAdminRoutes } from "./marketplace.admin.routes";
import { marketplaceDescriptions } from "./marketplace.docs";
import { providerRoutes } from "./providers.routes";

/** The catalog, providers, listings and menu items, and the administrators' provider approval. */
export const marketplaceArea: Area<{ marketplace: MarketplaceDeps }> = {
  routes: (deps) => [
    ...catalogRoutes(deps),
    ...providerRoutes(deps),
    ...listingRoutes(deps),
    ...marketplaceAdminRoutes(deps),
  ],
  adminKinds: marketplaceAdminKinds,
  descriptions: marketplaceDescriptions,
};
