import { z } from "zod";
import { listingSchema, providerSchema, serviceSchema } from "./marketplace";

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
