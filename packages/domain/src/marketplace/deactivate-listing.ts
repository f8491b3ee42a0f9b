import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { Listing } from "./marketplace.types";
import { findOwnedListing } from "./ownership";

/** The owner's delete: the listing becomes `inactive` (kept, no longer public). */
export const deactivateListing = async (
  { uow, clock }: Pick<MarketplaceDeps, "uow" | "clock">,
  actor: Actor,
  listingId: string,
): Promise<Listing> =>
  uow.run(async (tx) => {
    const now = clock.now();
    await findOwnedListing(tx, actor, listingId, now);
    await tx.listings.setStatus(listingId, "inactive", now);
    const updated = await tx.listings.findById(listingId, now);
    if (!updated) {
      throw new NotFoundError("Listing");
    }

    return updated;
  });
