import type { Actor } from "../common/actor";
import { applyMediaChange, prepareMediaChange, type RecordMedia, recordMedia } from "../media/record-media";
import { fileFilterReport, screenText } from "../moderation/screen-text";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { MenuItem } from "./marketplace.types";
import { findOwnedListing } from "./ownership";

/**
 * Adds an active item to the caller's own listing (404 when it is not theirs). `mediaAssetIds`: its
 * image (at most one of the caller's processed assets uploaded for `menu_item`).
 */
export const addMenuItem = async (
  deps: Pick<MarketplaceDeps, "uow" | "repos" | "clock" | "ids" | "objects" | "filters">,
  actor: Actor,
  listingId: string,
  input: {
    name: string;
    description?: string | undefined;
    priceAmount: number;
    currency: string;
    mediaAssetIds?: readonly string[] | undefined;
  },
): Promise<{ item: MenuItem; media: RecordMedia[] }> => {
  const { uow, clock, ids } = deps;
  // `hold` saves the write held (held_at): out of every public read until a moderator approves it.
  const screening = await screenText(deps, "listings", { name: input.name, description: input.description });
  const change = await prepareMediaChange(
    deps,
    actor,
    { kind: "menu_item", id: null, purpose: "menu_item" },
    input.mediaAssetIds,
  );
  const { item, assets } = await uow.run(async (tx) => {
    const now = clock.now();
    const listing = await findOwnedListing(tx, actor, listingId, now);
    const created: MenuItem = {
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
    await tx.menuItems.create(created, screening.action === "hold" ? now : null);
    await tx.listings.touch(listing.id, now);
    // A menu item's report is on its listing (reports have no menu item target).
    await fileFilterReport(tx, deps, screening, {
      type: "listing",
      id: listing.id,
      ownerId: actor.userId,
      snapshot: { menu_item_id: created.id, name: created.name, description: created.description },
      at: now,
    });
    const record = { kind: "menu_item", id: created.id, purpose: "menu_item" } as const;

    return { item: created, assets: await applyMediaChange(tx, actor, record, change, now) };
  });

  return { item, media: await recordMedia(deps.objects, assets, clock.now(), actor.userId) };
};
