import type { Actor } from "../shared/actor";
import { NotFoundError } from "../shared/app-error";
import { isUuid } from "../shared/ids";
import { findOwnedListing } from "./listings";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { MenuItem } from "./marketplace.types";
import { findOwnProvider } from "./providers";

type ItemInput = { name: string; description?: string | undefined; priceAmount: number; currency: string };
type ItemChanges = {
  name?: string | undefined;
  description?: string | undefined;
  priceAmount?: number | undefined;
  currency?: string | undefined;
  active?: boolean | undefined;
};

const itemNotFound = () => new NotFoundError("Menu item");

/** Adds an active item to the caller's own listing (404 when it is not theirs). */
export const addMenuItem = async (
  { uow, clock, ids }: Pick<MarketplaceDeps, "uow" | "clock" | "ids">,
  actor: Actor,
  listingId: string,
  input: ItemInput,
): Promise<MenuItem> =>
  uow.run(async (tx) => {
    await findOwnedListing(tx, actor, listingId);
    const now = clock.now();
    const item: MenuItem = {
      id: ids.next(),
      listingId,
      name: input.name,
      description: input.description ?? "",
      priceAmount: input.priceAmount,
      currency: input.currency,
      active: true,
      createdAt: now,
      updatedAt: now,
    };
    await tx.menuItems.create(item);
    await tx.listings.touch(listingId, now);

    return item;
  });

const findOwnedItem = async (repos: MarketplaceDeps["repos"], actor: Actor, itemId: string) => {
  if (!isUuid(itemId)) {
    throw itemNotFound();
  }
  const [own, item] = await Promise.all([findOwnProvider(repos, actor), repos.menuItems.findById(itemId)]);
  if (!own || !item || item.providerId !== own.id) {
    throw itemNotFound();
  }

  return item;
};

/** Changes an item of the caller's own listing, including (de)activating it. */
export const updateMenuItem = async (
  { uow, clock }: Pick<MarketplaceDeps, "uow" | "clock">,
  actor: Actor,
  itemId: string,
  changes: ItemChanges,
): Promise<MenuItem> =>
  uow.run(async (tx) => {
    const item = await findOwnedItem(tx, actor, itemId);
    const now = clock.now();
    const updated = await tx.menuItems.update(itemId, changes, now);
    if (!updated) {
      throw itemNotFound();
    }
    await tx.listings.touch(item.listingId, now);

    return updated;
  });

/**
 * Deletes an item of the caller's listing `listingId`; the item must be on that listing (404
 * otherwise). Deleted items never come back; orders keep their own copy of name and price.
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
      throw itemNotFound();
    }
    const now = clock.now();
    await tx.menuItems.markDeleted(itemId, now);
    await tx.listings.touch(listingId, now);
  });
