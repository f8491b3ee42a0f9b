import { z } from "zod";
import { idParamSchema } from "./common";
import { listingSchema, providerSchema, serviceSchema } from "./marketplace";
import { type CollectionKind, defineOperations, type StatusKind } from "./operation";

/** The statuses an administrator may set on a listing (`PATCH /admin/listings/{id}/status`). */
export const changeListingStatusRequestSchema = z
  .object({ status: z.enum(["active", "inactive", "suspended"]) })
  .meta({ id: "ListingStatusChange", example: { status: "suspended" } });

/** `GET /admin/services` items: every service, active or not. */
export const adminServiceSchema = serviceSchema.extend({ active: z.boolean() }).meta({ id: "AdminService" });
export type AdminServiceDto = z.infer<typeof adminServiceSchema>;

/** `GET /admin/providers` items. */
export const adminProviderSchema = providerSchema.meta({ id: "AdminProvider" });

/** `GET /admin/listings` items: the owner view of every listing, inactive and suspended included. */
export const adminListingSchema = listingSchema.meta({ id: "AdminListing" });

/** The administrators' decisions on providers (a listing's status: `PATCH /admin/{kind}/{id}/status`). */
export const marketplaceAdminOperations = defineOperations({
  adminProvidersApprove: {
    method: "POST",
    path: "/api/v1/admin/providers/{id}/approve",
    auth: "bearer",
    tags: ["Administration"],
    summary: "Approve a provider",
    params: idParamSchema,
    responses: { 200: { description: "The approved provider.", data: providerSchema } },
    errors: ["unauthorized", "forbidden", "not_found"],
  },
});

/** `GET /admin/services`: every service, active or not. */
export const servicesCollection = {
  status: z.enum(["active", "inactive"]),
  item: adminServiceSchema,
  searches: "a substring of the name or description",
} as const satisfies CollectionKind;

/** `GET /admin/providers`. */
export const providersCollection = {
  status: z.enum(["pending", "approved", "withdrawn"]),
  item: adminProviderSchema,
  searches: "a substring of the display name",
} as const satisfies CollectionKind;

/** `GET /admin/listings`: every listing, the inactive and suspended ones included. */
export const listingsCollection = {
  status: z.enum(["draft", "active", "inactive", "suspended"]),
  item: adminListingSchema,
  searches: "a substring of the name, description or provider name",
} as const satisfies CollectionKind;

/** `PATCH /admin/listings/{id}/status`: a suspended or inactive listing leaves public search. */
export const listingStatusChange = {
  body: changeListingStatusRequestSchema,
  data: listingSchema,
} as const satisfies StatusKind;
