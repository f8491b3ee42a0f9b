import { describe, expect, it } from "vitest";
import type { PublicMenuItem } from "../marketplace/marketplace.types";
import { createRecentItems } from "./recent-items";

const item = (menuItemId: string, priceAmount = 100): PublicMenuItem => ({
  menuItemId,
  listingId: "listing",
  providerId: "provider",
  providerUserId: "owner",
  name: `Item ${menuItemId}`,
  priceAmount,
  currency: "EUR",
});

describe("RecentItems", () => {
  it("remembers an item until it is forgotten, the newest reading replacing an older one", () => {
    const recent = createRecentItems(4);
    recent.remember(item("a", 100));
    recent.remember(item("a", 120));
    expect(recent.get("a")?.priceAmount).toBe(120);
    recent.forget("a");
    expect(recent.get("a")).toBeUndefined();
  });

  it("keeps at most its capacity, making room by dropping the least recently remembered", () => {
    const recent = createRecentItems(3);
    for (const id of ["a", "b", "c"]) {
      recent.remember(item(id));
    }
    recent.remember(item("a"));
    recent.remember(item("d"));
    expect(["a", "b", "c", "d"].filter((id) => recent.get(id) !== undefined)).toEqual(["a", "c", "d"]);
  });
});
