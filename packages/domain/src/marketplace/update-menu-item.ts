import type { Actor } from "../shared/actor";
import { NotFoundError } from "../shared/app-error";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { MenuItem } from "./marketplace.types";
import { findOwnedItem } from "./ownership";

/** Changes an item of the caller's own listing, including (de)activating it. */
export const updateMenuItem = async (
  { uow, clock }: Pick<MarketplaceDeps, "uow" | "clock">,
  actor: Actor,
  itemId: string,
  changes: {
    name?: string | undefined;
    description?: string | undefined;
    priceAmount?: number | undefined;
    currency?: string | undefined;
    active?: boolean | undefined;
  },
): Promise<MenuItem> =>
  uow.run(async (tx) => {
    const item = await findOwnedItem(tx, actor, itemId);
    const now = clock.now();
    const updated = await tx.menuItems.update(item.id, changes, now);
    if (!updated) {
      throw new NotFoundError("Menu item");
    }
    await tx.listings.touch(item.listingId, now);

    return updated;
  });
