import { createBoundedMap } from "../common/bounded-map";
import type { PublicMenuItem } from "../marketplace/marketplace.types";

/** How many orderable items a process remembers (a few hundred bytes each). */
const ITEMS_KEPT = 1024;

/**
 * Menu items recently read for an order, so the next order of the same item can skip the read. A
 * remembered item is only a guess: the order's write checks it against the database in the same
 * statement (`OrderRepository.place` answers "stale" when it no longer holds), and a stale guess is
 * forgotten and read again. Per process; the least recently remembered item makes room for a new one.
 */
export type RecentItems = {
  get(menuItemId: string): PublicMenuItem | undefined;
  remember(item: PublicMenuItem): void;
  forget(menuItemId: string): void;
};

export const createRecentItems = (kept = ITEMS_KEPT): RecentItems => {
  const items = createBoundedMap<string, PublicMenuItem>(kept);

  return {
    get: (menuItemId) => items.get(menuItemId),
    remember: (item) => items.set(item.menuItemId, item),
    forget: (menuItemId) => items.delete(menuItemId),
  };
};
