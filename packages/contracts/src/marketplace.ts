import { z } from "zod";
import {
  amountSchema,
  currencySchema,
  dateTimeInputSchema,
  idParamSchema,
  pageQuerySchema,
  timestampSchema,
} from "./common";
import { pageMetaSchema } from "./envelope";
import { mediaAssetIdsSchema, mediaItemSchema } from "./media";
import { defineOperations } from "./operation";

export const serviceSchema = z
  .object({ id: z.string(), name: z.string(), description: z.string() })
  .meta({ id: "Service" });
export const categorySchema = z
  .object({ id: z.string(), service_id: z.string(), name: z.string() })
  .meta({ id: "Category" });

const phone = z
  .string()
  .trim()
  .min(3)
  .max(32)
  .regex(/^[0-9+()\-. ]+$/, "may contain digits, spaces and + ( ) - .")
  .meta({ example: "+1 555 0100" });

export const providerSchema = z
  .object({
    id: z.string(),
    user_id: z.string(),
    display_name: z.string(),
    bio: z.string(),
    phone: z.string().nullable(),
    approval_status: z.enum(["pending", "approved", "withdrawn"]),
    availability: z.enum(["offline", "online"]),
    created_at: timestampSchema,
  })
  .meta({ id: "ProviderProfile" });
export type ProviderDto = z.infer<typeof providerSchema>;

export const ownProviderSchema = providerSchema
  .extend({
    media: mediaItemSchema.array().meta({ description: "The logo: one image, or none (an empty array)." }),
  })
  .meta({ id: "OwnProviderProfile", description: "The caller's provider profile, with its logo." });
export type OwnProviderDto = z.infer<typeof ownProviderSchema>;

export const createProviderRequestSchema = z
  .object({
    display_name: z.string().trim().min(1).max(100),
    bio: z.string().trim().max(2000).optional(),
    phone: phone.optional(),
    media_asset_ids: mediaAssetIdsSchema(1, "provider_logo").optional(),
  })
  .meta({
    example: { display_name: "Mira's Kitchen", bio: "Home-cooked meals, delivered.", phone: "+1 555 0100" },
  });

export const updateProviderRequestSchema = z
  .object({
    display_name: z.string().trim().min(1).max(100).optional(),
    bio: z.string().trim().max(2000).optional(),
    phone: phone.nullable().optional().meta({ description: "`null` removes the phone number." }),
    media_asset_ids: mediaAssetIdsSchema(1, "provider_logo").optional(),
  })
  .meta({ example: { bio: "Home-cooked meals, delivered daily." } });

export const manualSaleRequestSchema = z
  .object({
    amount: amountSchema,
    currency: currencySchema,
    occurred_at: dateTimeInputSchema.optional().meta({ description: "When the sale happened; default now." }),
    description: z.string().trim().min(1).max(500),
    customer_label: z.string().trim().max(120).optional(),
  })
  .meta({
    example: {
      amount: 2500,
      currency: "USD",
      occurred_at: "2026-11-20T12:30:00Z",
      description: "Catering for a birthday",
      customer_label: "Walk-in",
    },
  });

export const manualSaleSchema = z
  .object({
    id: z.string(),
    provider_id: z.string(),
    amount: z.number().int(),
    currency: z.string(),
    description: z.string(),
    customer_label: z.string().nullable(),
    occurred_at: timestampSchema,
    created_at: timestampSchema,
  })
  .meta({ id: "ManualSale" });

export const dashboardSchema = z
  .object({
    provider_id: z.string(),
    approval_status: z.enum(["pending", "approved", "withdrawn"]),
    listings_by_status: z.record(z.string(), z.number().int()),
    orders_by_status: z.record(z.string(), z.number().int()),
    revenue_30d: z.array(
      z.object({
        currency: z.string(),
        orders: z.number().int().meta({ description: "Primary sales of completed orders." }),
        manual_sales: z.number().int(),
        total: z.number().int(),
      }),
    ),
    pending_payments: z.number().int().meta({ description: "Order payments submitted and awaiting review." }),
  })
  .meta({ id: "ProviderDashboard" });

export const menuItemSchema = z
  .object({
    id: z.string(),
    listing_id: z.string(),
    name: z.string(),
    description: z.string(),
    price_amount: z.number().int(),
    currency: z.string(),
    active: z.boolean(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
    media: mediaItemSchema.array().meta({ description: "The item's image: one, or none (an empty array)." }),
  })
  .meta({ id: "MenuItem" });
export type MenuItemDto = z.infer<typeof menuItemSchema>;

export const publicMenuItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  price_amount: z.number().int(),
  currency: z.string(),
});

export const publicListingSchema = z
  .object({
    id: z.string(),
    provider_id: z.string(),
    provider_name: z.string(),
    name: z.string(),
    category_id: z.string(),
    category_name: z.string(),
    description: z.string().optional(),
    featured: z.boolean().optional(),
    menu_items: z.array(publicMenuItemSchema).meta({ description: "Active items only." }),
  })
  .meta({ id: "ListingItem" });
export type PublicListingDto = z.infer<typeof publicListingSchema>;

export const listingSchema = publicListingSchema
  .extend({
    status: z.enum(["draft", "active", "inactive", "suspended"]),
    subscription_status: z.enum(["inactive", "active"]),
    subscription_expires_at: timestampSchema.nullable(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: "Listing", description: "A listing as its owner (and staff) see it." });
export type ListingDto = z.infer<typeof listingSchema>;

const galleryField = mediaItemSchema.array().meta({ description: "The gallery, in order (up to 10)." });

export const listedMenuItemDetailSchema = publicMenuItemSchema
  .extend({
    media: mediaItemSchema.array().meta({ description: "The item's image: one, or none (an empty array)." }),
  })
  .meta({ id: "ListedMenuItemDetail" });

export const publicListingDetailSchema = publicListingSchema
  .extend({
    menu_items: z
      .array(listedMenuItemDetailSchema)
      .meta({ description: "Active items only, with their images." }),
    media: galleryField,
    provider_media: mediaItemSchema
      .array()
      .meta({ description: "The provider's logo: one image, or none (an empty array)." }),
  })
  .meta({
    id: "ListingDetail",
    description: "A public listing with its gallery, its items' images and its provider's logo.",
  });
export type PublicListingDetailDto = z.infer<typeof publicListingDetailSchema>;

export const ownListingSchema = listingSchema
  .extend({ media: galleryField })
  .meta({ id: "OwnListing", description: "A listing as its owner sees it, with its gallery." });
export type OwnListingDto = z.infer<typeof ownListingSchema>;

export const listingSearchItemSchema = publicListingSchema
  .extend({
    cover: mediaItemSchema
      .nullable()
      .meta({ description: "The first image of the listing's gallery; null without a gallery." }),
  })
  .meta({
    id: "ListingSearchItem",
    description: "A public listing in search results, with its cover image.",
  });
export type ListingSearchItemDto = z.infer<typeof listingSearchItemSchema>;

/** The shortest `q` the trigram index can serve (it indexes three-character sequences). */
export const MIN_SEARCH_QUERY_LENGTH = 3;

/** Listing search: pagination that is not an integer is 400 `invalid_pagination` here, not 422. */
/**
 * How deep public search pages: an anonymous caller cannot make the database walk and discard more
 * than this many matches for one page (docs/safety.md, "Write limits").
 */
export const MAX_SEARCH_OFFSET = 1000;

export const listingSearchQuerySchema = pageQuerySchema(20, MAX_SEARCH_OFFSET).extend({
  q: z
    .string()
    .max(120)
    .refine((value) => {
      const length = value.trim().length;

      return length === 0 || length >= MIN_SEARCH_QUERY_LENGTH;
    }, `must be at least ${MIN_SEARCH_QUERY_LENGTH} characters (or empty to browse)`)
    .optional()
    .meta({
      description:
        "Substring of name, description or provider name: 3 to 120 characters after trimming (1 or 2 " +
        "are 422: too short to search efficiently); empty or absent browses.",
    }),
  category_id: z
    .string()
    .max(64)
    .optional()
    .transform((value) => (value === "" ? undefined : value)),
});

export const createListingRequestSchema = z
  .object({
    provider_id: z
      .string()
      .min(1)
      .meta({ description: "Must be the caller's own provider profile (404 otherwise)." }),
    category_id: z.string().min(1),
    name: z.string().trim().min(1).max(200),
    description: z.string().trim().max(5000).optional(),
    media_asset_ids: mediaAssetIdsSchema(10, "listing").optional(),
  })
  .meta({
    example: {
      provider_id: "01935c2e-9b21-7d33-9e4f-5a6b7c8d9eaf",
      category_id: "01935c2e-8a10-7c22-8d3e-4f5a6b7c8d9e",
      name: "Weekly meal box",
      description: "Five dinners, vegetarian on request.",
    },
  });

export const updateListingRequestSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().trim().max(5000).optional(),
    category_id: z.string().min(1).optional(),
    media_asset_ids: mediaAssetIdsSchema(10, "listing").optional(),
  })
  .meta({ example: { name: "Weekly meal box (5 dinners)" } });

export const listingContactSchema = z.object({ user_id: z.string(), display_name: z.string() });

export const createMenuItemRequestSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    description: z.string().trim().max(2000).optional(),
    price_amount: amountSchema.meta({ description: "Minor units, 0 or more." }),
    currency: currencySchema,
    media_asset_ids: mediaAssetIdsSchema(1, "menu_item").optional(),
  })
  .meta({ example: { name: "Lasagne", description: "Serves two.", price_amount: 1450, currency: "USD" } });

export const updateMenuItemRequestSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().trim().max(2000).optional(),
    price_amount: amountSchema.optional(),
    currency: currencySchema.optional(),
    active: z.boolean().optional(),
    media_asset_ids: mediaAssetIdsSchema(1, "menu_item").optional(),
  })
  .meta({ example: { price_amount: 1500, active: true } });

export const deleteMenuItemQuerySchema = z.object({
  listing_id: z.string().meta({ description: "The listing the item is on; it must belong to the caller." }),
});

export const deletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });

const catalog = ["Catalog"];
const providers = ["Providers"];
const listings = ["Listings"];

/** The catalog, providers' profiles and dashboards, listings and their menu items. */
/** What a listing's or menu item's create or change can answer (text screened by the content filters). */
const catalogWriteErrors = [
  "unauthorized",
  "forbidden",
  "not_found",
  "validation_failed",
  "storage_unavailable",
  "content_blocked",
] as const;

export const marketplaceOperations = defineOperations({
  catalogServicesList: {
    method: "GET",
    path: "/api/v1/catalog/services",
    auth: "public",
    tags: catalog,
    summary: "Active platform services",
    responses: { 200: { description: "Services, in catalog order.", data: z.array(serviceSchema) } },
  },
  catalogCategoriesList: {
    method: "GET",
    path: "/api/v1/catalog/categories",
    auth: "public",
    tags: catalog,
    summary: "Active categories usable for listing creation",
    responses: { 200: { description: "Categories of active services.", data: z.array(categorySchema) } },
  },
  providersCreate: {
    method: "POST",
    path: "/api/v1/providers",
    auth: "bearer",
    tags: providers,
    summary: "Create the caller's provider profile",
    body: createProviderRequestSchema,
    responses: { 201: { description: "Created, pending approval.", data: ownProviderSchema } },
    errors: ["unauthorized", "validation_failed", "storage_unavailable"],
  },
  providersMeUpdate: {
    method: "PATCH",
    path: "/api/v1/providers/me",
    auth: "bearer",
    tags: providers,
    summary: "Change the caller's provider profile",
    body: updateProviderRequestSchema,
    responses: { 200: { description: "Updated.", data: ownProviderSchema } },
    errors: ["unauthorized", "forbidden", "not_found", "validation_failed", "storage_unavailable"],
  },
  providersMeDashboard: {
    method: "GET",
    path: "/api/v1/providers/me/dashboard",
    auth: "bearer",
    tags: providers,
    summary: "The owner's dashboard",
    responses: { 200: { description: "The dashboard.", data: dashboardSchema } },
    errors: ["unauthorized", "forbidden"],
  },
  providersMeSalesCreate: {
    method: "POST",
    path: "/api/v1/providers/me/sales",
    auth: "bearer",
    tags: providers,
    summary: "Record a manual sale",
    idempotencyKey: "optional",
    body: manualSaleRequestSchema,
    responses: { 201: { description: "Recorded.", data: manualSaleSchema } },
    errors: ["unauthorized", "forbidden", "validation_failed"],
  },
  listingsList: {
    method: "GET",
    path: "/api/v1/listings",
    auth: "public",
    tags: listings,
    summary: "Search public listings",
    writeLimit: "searches",
    query: listingSearchQuerySchema,
    responses: {
      200: {
        description: "A page of listings.",
        data: z.array(listingSearchItemSchema),
        meta: pageMetaSchema,
      },
    },
    errors: ["invalid_pagination", "validation_failed"],
  },
  listingsCreate: {
    method: "POST",
    path: "/api/v1/listings",
    auth: "bearer",
    tags: listings,
    summary: "Create a draft listing",
    body: createListingRequestSchema,
    responses: { 201: { description: "Draft created.", data: ownListingSchema } },
    errors: catalogWriteErrors,
  },
  listingsGet: {
    method: "GET",
    path: "/api/v1/listings/{id}",
    auth: "public",
    tags: listings,
    summary: "A public listing with its active menu items",
    params: idParamSchema,
    responses: { 200: { description: "The listing.", data: publicListingDetailSchema } },
    errors: ["not_found"],
  },
  listingsUpdate: {
    method: "PATCH",
    path: "/api/v1/listings/{id}",
    auth: "bearer",
    tags: listings,
    summary: "Change a listing (owner)",
    params: idParamSchema,
    body: updateListingRequestSchema,
    responses: { 200: { description: "Updated.", data: ownListingSchema } },
    errors: catalogWriteErrors,
  },
  listingsDelete: {
    method: "DELETE",
    path: "/api/v1/listings/{id}",
    auth: "bearer",
    tags: listings,
    summary: "Deactivate a listing (owner)",
    params: idParamSchema,
    responses: { 200: { description: "Deactivated.", data: listingSchema } },
    errors: ["unauthorized", "forbidden", "not_found"],
  },
  listingsContact: {
    method: "GET",
    path: "/api/v1/listings/{id}/contact",
    auth: "bearer",
    tags: listings,
    summary: "How to reach the provider of a public listing",
    params: idParamSchema,
    responses: { 200: { description: "The owner's user id and name.", data: listingContactSchema } },
    errors: ["unauthorized", "not_found"],
  },
  menuItemsCreate: {
    method: "POST",
    path: "/api/v1/listings/{id}/menu-items",
    auth: "bearer",
    tags: listings,
    summary: "Add a menu item (owner)",
    params: idParamSchema,
    body: createMenuItemRequestSchema,
    responses: { 201: { description: "Created.", data: menuItemSchema } },
    errors: catalogWriteErrors,
  },
  menuItemsUpdate: {
    method: "PATCH",
    path: "/api/v1/menu-items/{id}",
    auth: "bearer",
    tags: listings,
    summary: "Change a menu item (owner)",
    params: idParamSchema,
    body: updateMenuItemRequestSchema,
    responses: { 200: { description: "Updated.", data: menuItemSchema } },
    errors: catalogWriteErrors,
  },
  menuItemsDelete: {
    method: "DELETE",
    path: "/api/v1/menu-items/{id}",
    auth: "bearer",
    tags: listings,
    summary: "Delete a menu item (owner)",
    params: idParamSchema,
    query: deleteMenuItemQuerySchema,
    responses: { 200: { description: "Deleted.", data: deletedSchema } },
    errors: ["unauthorized", "forbidden", "not_found", "validation_failed"],
  },
});
