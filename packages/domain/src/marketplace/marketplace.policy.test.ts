import { describe, expect, it } from "vitest";
import {
  listingPublicIfUnexpired,
  listingPubliclyVisible,
  menuItemOnOffer,
  menuItemOrderable,
} from "./marketplace.policy";
import type { ListingVisibilityFacts, MenuItemOrderabilityFacts } from "./marketplace.types";

const at = new Date("2026-12-12T12:00:00.000Z");
const publicListing: ListingVisibilityFacts = {
  status: "active",
  subscriptionStatus: "active",
  subscriptionExpiresAt: new Date("2026-12-20T00:00:00.000Z"),
  providerApproved: true,
  ownerActive: true,
  heldAt: null,
};
const onOfferItem: MenuItemOrderabilityFacts = { active: true, deletedAt: null, heldAt: null };
const held = new Date("2026-12-12T11:00:00.000Z");

// The rules' agreement with their SQL functions on every combination is proved against a database
// (packages/db/test/listing-visibility.int.test.ts, packages/db/test/menu-item-orderable.int.test.ts);
// here, each fact alone decides as the rule says.
describe("listing visibility", () => {
  it("shows a listing whose every fact is public", () => {
    expect(listingPublicIfUnexpired(publicListing)).toBe(true);
    expect(listingPubliclyVisible(publicListing, at)).toBe(true);
  });

  it("leaves a held listing out, whatever its other facts", () => {
    expect(listingPublicIfUnexpired({ ...publicListing, heldAt: held })).toBe(false);
    expect(listingPubliclyVisible({ ...publicListing, heldAt: held }, at)).toBe(false);
  });

  it.each([
    ["suspended", { status: "suspended" }],
    ["subscription inactive", { subscriptionStatus: "inactive" }],
    ["provider not approved", { providerApproved: false }],
    ["owner not active", { ownerActive: false }],
  ] as const)("leaves a listing out when %s", (_, change) => {
    expect(listingPubliclyVisible({ ...publicListing, ...change }, at)).toBe(false);
  });

  it("leaves an expired listing out though its clock-free part holds", () => {
    const expired = { ...publicListing, subscriptionExpiresAt: at };
    expect(listingPublicIfUnexpired(expired)).toBe(true);
    expect(listingPubliclyVisible(expired, at)).toBe(false);
  });
});

describe("menu item orderability", () => {
  it("orders an item on offer on a visible listing", () => {
    expect(menuItemOnOffer(onOfferItem)).toBe(true);
    expect(menuItemOrderable(onOfferItem, publicListing, at)).toBe(true);
  });

  it("refuses a held item, and an item of a held listing", () => {
    expect(menuItemOnOffer({ ...onOfferItem, heldAt: held })).toBe(false);
    expect(menuItemOrderable({ ...onOfferItem, heldAt: held }, publicListing, at)).toBe(false);
    expect(menuItemOnOffer(onOfferItem)).toBe(true);
    expect(menuItemOrderable(onOfferItem, { ...publicListing, heldAt: held }, at)).toBe(false);
  });

  it("refuses an inactive or deleted item", () => {
    expect(menuItemOrderable({ ...onOfferItem, active: false }, publicListing, at)).toBe(false);
    expect(menuItemOrderable({ ...onOfferItem, deletedAt: held }, publicListing, at)).toBe(false);
  });
});
