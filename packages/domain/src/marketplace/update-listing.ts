import type { Actor } from "../shared/actor";
import { NotFoundError } from "../shared/app-error";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { Listing } from "./marketplace.types";
import { findOwnedListing, requireActiveCategory } from "./ownership";

/** Owner only (404 otherwise); ids in the body are never applied. */
export const updateListing = async (
  { uow, clock }: Pick<MarketplaceDeps, "uow" | "clock">,
  actor: Actor,
  listingId: string,
  changes: { name?: string | undefined; description?: string | undefined; categoryId?: string | undefined },
): Promise<Listing> =>
  uow.run(async (tx) => {
    const now = clock.now();
    await findOwnedListing(tx, actor, listingId, now);
    if (changes.categoryId !== undefined) {
      await requireActiveCategory(tx, changes.categoryId);
    }
    await tx.listings.update(listingId, changes, now);
    const updated = await tx.listings.findById(listingId, now);
    if (!updated) {
      throw new NotFoundError("Listing");
    }

    return updated;
  });
