import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import { applyMediaChange, prepareMediaChange, type RecordMedia, recordMedia } from "../media/record-media";
import { fileFilterReport, screenText } from "../moderation/screen-text";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { MenuItem } from "./marketplace.types";
import { findOwnedItem } from "./ownership";

/**
 * Changes an item of the caller's own listing, including (de)activating it. `mediaAssetIds`, when
 * given, replaces its image (`[]` removes it; the old one is left to the orphan purge).
 */
export const updateMenuItem = async (
  deps: Pick<MarketplaceDeps, "uow" | "repos" | "clock" | "objects" | "ids" | "filters">,
  actor: Actor,
  itemId: string,
  changes: {
    name?: string | undefined;
    description?: string | undefined;
    priceAmount?: number | undefined;
    currency?: string | undefined;
    active?: boolean | undefined;
    mediaAssetIds?: readonly string[] | undefined;
  },
): Promise<{ item: MenuItem; media: RecordMedia[] }> => {
  const { uow, clock } = deps;
  // `hold` saves the write held (held_at): out of every public read until a moderator approves it.
  const screening = await screenText(deps, "listings", {
    name: changes.name,
    description: changes.description,
  });
  const record = { kind: "menu_item", id: itemId, purpose: "menu_item" } as const;
  let change: Awaited<ReturnType<typeof prepareMediaChange>>;
  if (changes.mediaAssetIds !== undefined) {
    // Ownership is checked again in the transaction; the image's checks need the store, outside it.
    await findOwnedItem(deps.repos, actor, itemId);
    change = await prepareMediaChange(deps, actor, record, changes.mediaAssetIds);
  }
  const { item, assets } = await uow.run(async (tx) => {
    const owned = await findOwnedItem(tx, actor, itemId);
    const now = clock.now();
    const updated = await tx.menuItems.update(
      owned.id,
      {
        name: changes.name,
        description: changes.description,
        priceAmount: changes.priceAmount,
        currency: changes.currency,
        active: changes.active,
        hold: screening.action === "hold",
      },
      now,
    );
    if (!updated) {
      throw new NotFoundError("Menu item");
    }
    await tx.listings.touch(owned.listingId, now);
    // A menu item's report is on its listing (reports have no menu item target).
    await fileFilterReport(tx, deps, screening, {
      type: "listing",
      id: owned.listingId,
      ownerId: actor.userId,
      snapshot: { menu_item_id: updated.id, name: updated.name, description: updated.description },
      at: now,
    });

    return { item: updated, assets: await applyMediaChange(tx, actor, record, change, now) };
  });

  return { item, media: await recordMedia(deps.objects, assets, clock.now(), actor.userId) };
};
