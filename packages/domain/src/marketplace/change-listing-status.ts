import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import { requireRole } from "../identity/identity.policy";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { Listing } from "./marketplace.types";

/** The statuses an administrator may set on a listing (the served OpenAPI document lists them). */
export const adminListingStatuses = ["active", "inactive", "suspended"] as const;
export type AdminListingStatus = (typeof adminListingStatuses)[number];

/** Admin status change of any listing, audited with the status before and after. */
export const changeListingStatus = async (
  { uow, clock }: Pick<MarketplaceDeps, "uow" | "clock">,
  actor: Actor,
  input: { listingId: string; status: AdminListingStatus },
): Promise<Listing> => {
  requireRole(actor, "admin");
  const now = clock.now();

  return uow.run(async (tx) => {
    const before = await tx.listings.findById(input.listingId, now);
    if (!before) {
      throw new NotFoundError("Listing");
    }
    await tx.listings.setStatus(before.id, input.status, now);
    await tx.audit.record(
      {
        actor,
        action: "listing.status_changed",
        targetType: "listing",
        targetId: before.id,
        before: { status: before.status },
        after: { status: input.status },
      },
      now,
    );

    return { ...before, status: input.status, updatedAt: now };
  });
};
