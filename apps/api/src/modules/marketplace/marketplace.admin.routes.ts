import {
  listingStatusChange,
  listingsCollection,
  marketplaceAdminOperations,
  providersCollection,
  servicesCollection,
} from "@agora/contracts/marketplace.admin";
import { adminListListings } from "@agora/domain/marketplace/admin-list-listings";
import { adminListProviders } from "@agora/domain/marketplace/admin-list-providers";
import { adminListServices } from "@agora/domain/marketplace/admin-list-services";
import { approveProvider } from "@agora/domain/marketplace/approve-provider";
import { changeListingStatus } from "@agora/domain/marketplace/change-listing-status";
import type { MarketplaceDeps } from "@agora/domain/marketplace/marketplace.deps";
import { actorOf } from "../../http/middleware/auth";
import { type Handled, handle } from "../../http/operations";
import { ok } from "../../http/respond";
import { type AdminKinds, collectionKind, statusKind } from "../administration/administration.kinds";
import { toListingDto, toProviderDto } from "./marketplace.presenter";

export const marketplaceAdminRoutes = ({ marketplace }: { marketplace: MarketplaceDeps }): Handled[] => [
  handle(
    marketplaceAdminOperations.adminProvidersApprove,
    async (c) =>
      ok(c, toProviderDto(await approveProvider(marketplace, actorOf(c), c.req.valid("param").id))),
    { roles: ["admin"] },
  ),
];

/**
 * The marketplace kinds: services (every one, active or not), providers and listings (every one,
 * the inactive and suspended ones included); a listing's status, where a suspended or inactive
 * listing leaves public search.
 */
export const marketplaceAdminKinds = ({ marketplace }: { marketplace: MarketplaceDeps }): AdminKinds => ({
  collections: {
    services: collectionKind(servicesCollection, async (actor, filter, page) => {
      const found = await adminListServices(marketplace, actor, filter, page);

      return { total: found.total, items: found.items.map((service) => ({ ...service })) };
    }),
    providers: collectionKind(providersCollection, async (actor, filter, page) => {
      const found = await adminListProviders(marketplace, actor, filter, page);

      return { total: found.total, items: found.items.map(toProviderDto) };
    }),
    listings: collectionKind(listingsCollection, async (actor, filter, page) => {
      const found = await adminListListings(marketplace, actor, filter, page);

      return { total: found.total, items: found.items.map(toListingDto) };
    }),
  },
  statuses: {
    listings: statusKind(listingStatusChange, async (actor, id, { status }) =>
      toListingDto(await changeListingStatus(marketplace, actor, { listingId: id, status })),
    ),
  },
});
