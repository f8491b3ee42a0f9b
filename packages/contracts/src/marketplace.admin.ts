import { z } from "zod";

/** The statuses an administrator may set on a listing (`PATCH /admin/listings/{id}/status`). */
export const changeListingStatusRequestSchema = z
  .object({ status: z.enum(["active", "inactive", "suspended"]) })
  .meta({ id: "ListingStatusChange" });
