import { marketplaceOperations } from "@agora/contracts/marketplace";
import { AppError } from "@agora/domain/common/app-error";
import { addMenuItem } from "@agora/domain/marketplace/add-menu-item";
import { createListing } from "@agora/domain/marketplace/create-listing";
import { deactivateListing } from "@agora/domain/marketplace/deactivate-listing";
import { deleteMenuItem } from "@agora/domain/marketplace/delete-menu-item";
import { getListingContact } from "@agora/domain/marketplace/get-listing-contact";
import { getPublicListing } from "@agora/domain/marketplace/get-public-listing";
import type { MarketplaceDeps } from "@agora/domain/marketplace/marketplace.deps";
import { searchListings } from "@agora/domain/marketplace/search-listings";
import { updateListing } from "@agora/domain/marketplace/update-listing";
import { updateMenuItem } from "@agora/domain/marketplace/update-menu-item";
import type { z } from "zod";
import { actorOf } from "../../http/middleware/auth";
import { throwOnInvalid } from "../../http/openapi";
import { type Handled, handle } from "../../http/operations";
import { ok } from "../../http/respond";
import { toMediaItemDto } from "../media/media.presenter";
import {
  toListingDto,
  toListingSearchItemDto,
  toMenuItemDto,
  toPublicListingDetailDto,
} from "./marketplace.presenter";

/**
 * Listing search pagination that is not an integer is 400 `invalid_pagination` (out of
 * range stays 422); every other validation failure goes through the router's 422 hook.
 */
const nonIntegerPaginationIs400 = (
  result:
    | { success: true; data: unknown; target: string }
    | { success: false; error: z.ZodError; target: string },
): undefined => {
  const notInteger = result.success
    ? undefined
    : result.error.issues.find(
        (issue) =>
          result.target === "query" &&
          issue.code === "invalid_type" &&
          ["limit", "offset"].includes(String(issue.path[0])),
      );
  if (notInteger) {
    const name = String(notInteger.path[0]);
    throw new AppError("invalid_pagination", `${name} must be an integer.`, {
      details: [{ path: name, message: "must be an integer" }],
    });
  }
  return throwOnInvalid(result);
};

export const listingRoutes = ({ marketplace }: { marketplace: MarketplaceDeps }): Handled[] => [
  handle(
    marketplaceOperations.listingsList,
    async (c) => {
      const { q, category_id, limit, offset } = c.req.valid("query");
      const result = await searchListings(marketplace, { q, categoryId: category_id, limit, offset });

      const items = result.items.map((listing) =>
        toListingSearchItemDto(listing, result.covers.get(listing.id)),
      );

      return ok(c, items, { meta: { limit, offset, total: result.total } });
    },
    { hook: nonIntegerPaginationIs400 },
  ),
  handle(marketplaceOperations.listingsCreate, async (c) => {
    const input = c.req.valid("json");
    const { listing, media } = await createListing(marketplace, actorOf(c), {
      providerId: input.provider_id,
      categoryId: input.category_id,
      name: input.name,
      description: input.description,
      mediaAssetIds: input.media_asset_ids,
    });

    return ok(c, { ...toListingDto(listing), media: media.map(toMediaItemDto) }, { status: 201 });
  }),
  handle(marketplaceOperations.listingsGet, async (c) => {
    const found = await getPublicListing(marketplace, c.req.valid("param").id);

    return ok(c, toPublicListingDetailDto(found.listing, found));
  }),
  handle(marketplaceOperations.listingsUpdate, async (c) => {
    const input = c.req.valid("json");
    const { listing, media } = await updateListing(marketplace, actorOf(c), c.req.valid("param").id, {
      name: input.name,
      description: input.description,
      categoryId: input.category_id,
      mediaAssetIds: input.media_asset_ids,
    });

    return ok(c, { ...toListingDto(listing), media: media.map(toMediaItemDto) });
  }),
  handle(marketplaceOperations.listingsDelete, async (c) =>
    ok(c, toListingDto(await deactivateListing(marketplace, actorOf(c), c.req.valid("param").id))),
  ),
  handle(marketplaceOperations.listingsContact, async (c) => {
    actorOf(c);
    const found = await getListingContact(marketplace, c.req.valid("param").id);

    return ok(c, { user_id: found.userId, display_name: found.displayName });
  }),
  handle(marketplaceOperations.menuItemsCreate, async (c) => {
    const input = c.req.valid("json");
    const { item, media } = await addMenuItem(marketplace, actorOf(c), c.req.valid("param").id, {
      name: input.name,
      description: input.description,
      priceAmount: input.price_amount,
      currency: input.currency,
      mediaAssetIds: input.media_asset_ids,
    });

    return ok(c, { ...toMenuItemDto(item), media: media.map(toMediaItemDto) }, { status: 201 });
  }),
  handle(marketplaceOperations.menuItemsUpdate, async (c) => {
    const input = c.req.valid("json");
    const { item, media } = await updateMenuItem(marketplace, actorOf(c), c.req.valid("param").id, {
      name: input.name,
      description: input.description,
      priceAmount: input.price_amount,
      currency: input.currency,
      active: input.active,
      mediaAssetIds: input.media_asset_ids,
    });

    return ok(c, { ...toMenuItemDto(item), media: media.map(toMediaItemDto) });
  }),
  handle(marketplaceOperations.menuItemsDelete, async (c) => {
    const { id } = c.req.valid("param");
    await deleteMenuItem(marketplace, actorOf(c), id, c.req.valid("query").listing_id);

    return ok(c, { id, deleted: true as const });
  }),
];
