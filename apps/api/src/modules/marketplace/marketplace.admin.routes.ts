import { listingSchema } from "@agora/contracts/marketplace";
import {
  adminListingSchema,
  adminProviderSchema,
  adminServiceSchema,
  changeListingStatusRequestSchema,
  marketplaceAdminOperations,
} from "@agora/contracts/marketplace.admin";
import { adminListListings } from "@agora/domain/marketplace/admin-list-listings";
import { adminListProviders } from "@agora/domain/marketplace/admin-list-providers";
import { adminListServices } from "@agora/domain/marketplace/admin-list-services";
import { approveProvider } from "@agora/domain/marketplace/approve-provider";
import {
  type AdminListingStatus,
  changeListingStatus,
} from "@agora/domain/marketplace/change-listing-status";
import type { MarketplaceDeps } from "@agora/domain/marketplace/marketplace.deps";
import type { ApprovalStatus, ListingStatus } from "@agora/domain/marketplace/marketplace.types";
import { z } from "zod";
import { actorOf } from "../../http/middleware/auth";
import { type Handled, handle } from "../../http/operations";
import { ok } from "../../http/respond";
import type { CollectionKind, StatusKind } from "../administration/administration.kinds";
import { toListingDto, toProviderDto } from "./marketplace.presenter";

export const marketplaceAdminRoutes = ({ marketplace }: { marketplace: MarketplaceDeps }): Handled[] => [
  handle(
    marketplaceAdminOperations.adminProvidersApprove,
    async (c) =>
      ok(c, toProviderDto(await approveProvider(marketplace, actorOf(c), c.req.valid("param").id))),
    { roles: ["admin"] },
  ),
];

/** `PATCH /admin/listings/{id}/status`: a suspended or inactive listing leaves public search. */
export const listingStatusKind = ({
  marketplace,
}: {
  marketplace: MarketplaceDeps;
}): StatusKind<AdminListingStatus> => ({
  request: changeListingStatusRequestSchema,
  response: listingSchema,
  change: async (actor, id, { status }) =>
    toListingDto(await changeListingStatus(marketplace, actor, { listingId: id, status })),
});

type MarketplaceKindDeps = { marketplace: MarketplaceDeps };

/** `GET /admin/services`: every service, active or not. */
export const servicesKind = ({
  marketplace,
}: MarketplaceKindDeps): CollectionKind<"active" | "inactive"> => ({
  status: z.enum(["active", "inactive"]),
  searches: "a substring of the name or description",
  item: adminServiceSchema,
  list: async (actor, filter, page) => {
    const found = await adminListServices(marketplace, actor, filter, page);

    return { total: found.total, items: found.items.map((service) => ({ ...service })) };
  },
});

/** `GET /admin/providers`. */
export const providersKind = ({ marketplace }: MarketplaceKindDeps): CollectionKind<ApprovalStatus> => ({
  status: z.enum(["pending", "approved"]),
  searches: "a substring of the display name",
  item: adminProviderSchema,
  list: async (actor, filter, page) => {
    const found = await adminListProviders(marketplace, actor, filter, page);

    return { total: found.total, items: found.items.map(toProviderDto) };
  },
});

/** `GET /admin/listings`: every listing, the inactive and suspended ones included. */
export const listingsKind = ({ marketplace }: MarketplaceKindDeps): CollectionKind<ListingStatus> => ({
  status: z.enum(["draft", "active", "inactive", "suspended"]),
  searches: "a substring of the name, description or provider name",
  item: adminListingSchema,
  list: async (actor, filter, page) => {
    const found = await adminListListings(marketplace, actor, filter, page);

    return { total: found.total, items: found.items.map(toListingDto) };
  },
});
