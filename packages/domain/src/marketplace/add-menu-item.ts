import type { Actor } from "../common/actor";
import { applyMediaChange, prepareMediaChange, type RecordMedia, recordMedia } from "../media/record-media";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { MenuItem } from "./marketplace.types";
import { findOwnedListing } from "./ownership";

/**
 * Adds an active item to the caller's own listing (404 when it is not theirs). `mediaAssetIds`: its
 * image (at most one of the caller's processed assets uploaded for `menu_item`).
 */
export const addMenuItem = async (
  deps: Pick<MarketplaceDeps, "uow" | "repos" | "clock" | "ids" | "objects">,
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
    await tx.menuItems.create(created);
    await tx.listings.touch(listing.id, now);
    const record = { kind: "menu_item", id: created.id, purpose: "menu_item" } as const;

    return { item: created, assets: await applyMediaChange(tx, actor, record, change, now) };
  });

  return { item, media: await recordMedia(deps.objects, assets, clock.now(), actor.userId) };
};
