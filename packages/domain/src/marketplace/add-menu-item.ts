import type { Actor } from "../shared/actor";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { MenuItem } from "./marketplace.types";
import { findOwnedListing } from "./ownership";

/** Adds an active item to the caller's own listing (404 when it is not theirs). */
export const addMenuItem = async (
  { uow, clock, ids }: Pick<MarketplaceDeps, "uow" | "clock" | "ids">,
  actor: Actor,
  listingId: string,
  input: { name: string; description?: string | undefined; priceAmount: number; currency: string },
): Promise<MenuItem> =>
  uow.run(async (tx) => {
    const now = clock.now();
    const listing = await findOwnedListing(tx, actor, listingId, now);
    const item: MenuItem = {
      id: ids.next(),
      listingId: listing.id,
      name: input.name,
      description: input.description ?? "",
      priceAmount: input.priceAmount,
      currency: input.currency,
      active: true,
      createdAt: now,
      updatedAt: now,
    };
    await tx.menuItems.create(item);
    await tx.listings.touch(listing.id, now);

    return item;
  });
