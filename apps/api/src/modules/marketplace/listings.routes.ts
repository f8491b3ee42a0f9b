import { idParamSchema } from "@agora/contracts/common";
import { pageMetaSchema, successEnvelope } from "@agora/contracts/envelope";
import {
  createListingRequestSchema,
  createMenuItemRequestSchema,
  deletedSchema,
  deleteMenuItemQuerySchema,
  listingContactSchema,
  listingSchema,
  listingSearchQuerySchema,
  menuItemSchema,
  publicListingSchema,
  updateListingRequestSchema,
  updateMenuItemRequestSchema,
} from "@agora/contracts/marketplace";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
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
import { AppError } from "@agora/domain/shared/app-error";
import { createRoute, z } from "@hono/zod-openapi";
import { actorOf, requireAuth } from "../../http/middleware/auth";
import { body, createRouter, errors, json, throwOnInvalid } from "../../http/openapi";
import { ok } from "../../http/respond";
import { toListingDto, toMenuItemDto, toPublicListingDto } from "./marketplace.presenter";

const tags = ["Listings"];

/**
 * SPEC: listing search pagination that is not an integer is 400 `invalid_pagination` (out of
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
const secured = [{ bearerAuth: [] }];

export const createListingRoutes = ({
  identity,
  marketplace,
}: {
  identity: IdentityDeps;
  marketplace: MarketplaceDeps;
}) => {
  const auth = requireAuth(identity);

  const search = createRoute({
    method: "get",
    path: "/listings",
    tags,
    summary: "Search public listings",
    description:
      "Only publicly visible listings: active, subscription active and not expired (checked now), provider " +
      "approved, and the provider's account active (a suspended or deleted owner's listings disappear). `q` " +
      "matches a substring of name, description or provider name, case-insensitively; it needs at least 3 " +
      "characters after trimming (the search index works on three-character sequences, so 1 or 2 are 422 " +
      "`validation_failed`; an empty `q` browses). Featured listings (featured-until in the future) come " +
      "first, then the most recently updated, then by id. `meta` carries `{ limit, offset, total }`. A " +
      "non-integer limit or offset is 400 `invalid_pagination`; out of range (limit 1-100, offset 0 or " +
      "more), `q` of 1-2 or over 120 characters, or `category_id` over 64 characters is 422. Pages may be " +
      "served from the server's cache, but only while they are still exactly the answer: every committed " +
      "change to a listing, menu item, provider or category, and every expiry or featured end that " +
      "touches a page, is seen by the next request.",
    request: { query: listingSearchQuerySchema },
    responses: {
      200: json(successEnvelope(z.array(publicListingSchema), pageMetaSchema), "A page of listings."),
      ...errors("invalid_pagination", "validation_failed"),
    },
  });

  const create = createRoute({
    method: "post",
    path: "/listings",
    tags,
    summary: "Create a draft listing",
    description:
      "The listing belongs to the caller's provider profile: `provider_id` must be that profile's id (404 when " +
      "the caller has none or names another). The category must be active (422). Starts as `draft`; it becomes " +
      "`active` once the provider is approved and the subscription is paid.",
    security: secured,
    middleware: [auth],
    request: body(createListingRequestSchema),
    responses: {
      201: json(successEnvelope(listingSchema), "Draft created."),
      ...errors("unauthorized", "not_found", "validation_failed"),
    },
  });

  const get = createRoute({
    method: "get",
    path: "/listings/{id}",
    tags,
    summary: "A public listing with its active menu items",
    description:
      "404 when the listing is absent or not publicly visible (including when its provider's account is " +
      "suspended or deleted).",
    request: { params: idParamSchema },
    responses: { 200: json(successEnvelope(publicListingSchema), "The listing."), ...errors("not_found") },
  });

  const patch = createRoute({
    method: "patch",
    path: "/listings/{id}",
    tags,
    summary: "Change a listing (owner)",
    description:
      "Listing and provider ids in the body are ignored: the path and the caller decide. 404 unless the caller owns it.",
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema, ...body(updateListingRequestSchema) },
    responses: {
      200: json(successEnvelope(listingSchema), "Updated."),
      ...errors("unauthorized", "not_found", "validation_failed"),
    },
  });

  const remove = createRoute({
    method: "delete",
    path: "/listings/{id}",
    tags,
    summary: "Deactivate a listing (owner)",
    description: "Not a hard delete: the listing becomes `inactive` and leaves public search.",
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema },
    responses: {
      200: json(successEnvelope(listingSchema), "Deactivated."),
      ...errors("unauthorized", "not_found"),
    },
  });

  const contact = createRoute({
    method: "get",
    path: "/listings/{id}/contact",
    tags,
    summary: "How to reach the provider of a public listing",
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema },
    responses: {
      200: json(successEnvelope(listingContactSchema), "The owner's user id and name."),
      ...errors("unauthorized", "not_found"),
    },
  });

  const addItem = createRoute({
    method: "post",
    path: "/listings/{id}/menu-items",
    tags,
    summary: "Add a menu item (owner)",
    description: "Created active. Currency is uppercased; price is minor units.",
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema, ...body(createMenuItemRequestSchema) },
    responses: {
      201: json(successEnvelope(menuItemSchema), "Created."),
      ...errors("unauthorized", "not_found", "validation_failed"),
    },
  });

  const patchItem = createRoute({
    method: "patch",
    path: "/menu-items/{id}",
    tags,
    summary: "Change a menu item (owner)",
    description: "`active: false` hides it from listings and from ordering.",
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema, ...body(updateMenuItemRequestSchema) },
    responses: {
      200: json(successEnvelope(menuItemSchema), "Updated."),
      ...errors("unauthorized", "not_found", "validation_failed"),
    },
  });

  const deleteItem = createRoute({
    method: "delete",
    path: "/menu-items/{id}",
    tags,
    summary: "Delete a menu item (owner)",
    description:
      "`listing_id` is required (422 without it) and must be the caller's listing holding the item (404).",
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema, query: deleteMenuItemQuerySchema },
    responses: {
      200: json(successEnvelope(deletedSchema), "Deleted."),
      ...errors("unauthorized", "not_found", "validation_failed"),
    },
  });

  return createRouter()
    .openapi(
      search,
      async (c) => {
        const { q, category_id, limit, offset } = c.req.valid("query");
        const result = await searchListings(marketplace, { q, categoryId: category_id, limit, offset });

        return ok(c, result.items.map(toPublicListingDto), { meta: { limit, offset, total: result.total } });
      },
      (result) => nonIntegerPaginationIs400(result),
    )
    .openapi(create, async (c) => {
      const input = c.req.valid("json");
      const listing = await createListing(marketplace, actorOf(c), {
        providerId: input.provider_id,
        categoryId: input.category_id,
        name: input.name,
        description: input.description,
      });

      return ok(c, toListingDto(listing), { status: 201 });
    })
    .openapi(get, async (c) =>
      ok(c, toPublicListingDto(await getPublicListing(marketplace, c.req.valid("param").id))),
    )
    .openapi(patch, async (c) => {
      const input = c.req.valid("json");
      const listing = await updateListing(marketplace, actorOf(c), c.req.valid("param").id, {
        name: input.name,
        description: input.description,
        categoryId: input.category_id,
      });

      return ok(c, toListingDto(listing));
    })
    .openapi(remove, async (c) =>
      ok(c, toListingDto(await deactivateListing(marketplace, actorOf(c), c.req.valid("param").id))),
    )
    .openapi(contact, async (c) => {
      actorOf(c);
      const found = await getListingContact(marketplace, c.req.valid("param").id);

      return ok(c, { user_id: found.userId, display_name: found.displayName });
    })
    .openapi(addItem, async (c) => {
      const input = c.req.valid("json");
      const item = await addMenuItem(marketplace, actorOf(c), c.req.valid("param").id, {
        name: input.name,
        description: input.description,
        priceAmount: input.price_amount,
        currency: input.currency,
      });

      return ok(c, toMenuItemDto(item), { status: 201 });
    })
    .openapi(patchItem, async (c) => {
      const input = c.req.valid("json");
      const item = await updateMenuItem(marketplace, actorOf(c), c.req.valid("param").id, {
        name: input.name,
        description: input.description,
        priceAmount: input.price_amount,
        currency: input.currency,
        active: input.active,
      });

      return ok(c, toMenuItemDto(item));
    })
    .openapi(deleteItem, async (c) => {
      const { id } = c.req.valid("param");
      await deleteMenuItem(marketplace, actorOf(c), id, c.req.valid("query").listing_id);

      return ok(c, { id, deleted: true as const });
    });
};
