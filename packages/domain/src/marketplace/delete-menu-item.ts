import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import type { MarketplaceDeps } from "./marketplace.deps";
import { findOwnedItem } from "./ownership";

/**
 * Deletes an item of the caller's listing `listingId`; the item must be on that listing (404
 * otherwise). Deleted items never come back; orders keep their own copy of name and price. Its
 * image is detached, so the orphan purge deletes it.
 */
export const deleteMenuItem = async (
  { uow, clock }: Pick<MarketplaceDeps, "uow" | "clock">,
  actor: Actor,
  itemId: string,
  listingId: string,
): Promise<void> =>
  uow.run(async (tx) => {
    const item = await findOwnedItem(tx, actor, itemId);
    if (item.listingId !== listingId) {
      throw new NotFoundError("Menu item");
    }
    const now = clock.now();
    await tx.menuItems.markDeleted(item.id, now);
    await tx.media.setRecordMedia("menu_item", item.id, []);
    await tx.listings.touch(item.listingId, now);
  });
