import { describe, expect, it } from "vitest";
import type { Actor, Role } from "../common/actor";
import { canSeeOrder, decideTransition, type TransitionDecision } from "./orders.policy";
import {
  type Order,
  type OrderStatus,
  orderStatuses,
  type RequestableStatus,
  requestableStatuses,
} from "./orders.types";

const customer = "0190a000-0000-7000-8000-0000000000c1";
const providerOwner = "0190a000-0000-7000-8000-0000000000b1";
const someone = "0190a000-0000-7000-8000-0000000000e1";
const actor = (userId: string, role: Role): Actor => ({ userId, role, sessionId: "s" });

const order = (status: OrderStatus): Order => ({
  id: "o",
  customerId: customer,
  guestEmail: null,
  providerId: "p",
  providerUserId: providerOwner,
  listingId: "l",
  menuItemId: "m",
  itemName: "Soup",
  unitPriceAmount: 500,
  quantity: 1,
  totalAmount: 500,
  currency: "USD",
  status,
  paymentStatus: "unpaid",
  version: 1,
  notes: null,
  scheduleAt: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

/** The moves each part may make, written out as the API document states them. */
const managementMoves: [OrderStatus, RequestableStatus][] = [
  ["pending", "confirmed"],
  ["pending", "cancelled"],
  ["confirmed", "in_progress"],
  ["confirmed", "completed"],
  ["confirmed", "cancelled"],
  ["in_progress", "completed"],
  ["in_progress", "cancelled"],
];
const customerMoves: [OrderStatus, RequestableStatus][] = [
  ["pending", "cancelled"],
  ["confirmed", "cancelled"],
];

/**
 * Every actor, every status, every requested status: allowed when the actor's part holds the move,
 * invalid (422) when the part allows asking for that status but not from this one, forbidden (403)
 * when the part never allows it.
 */
const actors: {
  name: string;
  who: Actor;
  expected: (from: OrderStatus, to: RequestableStatus) => TransitionDecision;
}[] = [
  ...[
    { name: "the provider owner", who: actor(providerOwner, "provider") },
    { name: "an administrator", who: actor(someone, "admin") },
  ].map(({ name, who }) => ({
    name,
    who,
    expected: (from: OrderStatus, to: RequestableStatus): TransitionDecision =>
      managementMoves.some(([f, t]) => f === from && t === to) ? "allowed" : "invalid",
  })),
  {
    name: "the customer",
    who: actor(customer, "member"),
    expected: (from, to) =>
      to !== "cancelled"
        ? "forbidden"
        : customerMoves.some(([f, t]) => f === from && t === to)
          ? "allowed"
          : "invalid",
  },
  { name: "an accountant", who: actor(someone, "accountant"), expected: () => "forbidden" },
  { name: "another provider", who: actor(someone, "provider"), expected: () => "forbidden" },
  { name: "another member", who: actor(someone, "member"), expected: () => "forbidden" },
];

const cases = actors.flatMap(({ name, who, expected }) =>
  orderStatuses.flatMap((from) =>
    requestableStatuses.map((to) => ({ name, who, from, to, decision: expected(from, to) })),
  ),
);

describe("order moves, per actor", () => {
  it.each(cases)("$name: $from → $to is $decision", ({ who, from, to, decision }) => {
    expect(decideTransition(who, order(from), to)).toBe(decision);
  });

  it("covers every status and every requested status for each actor, and both answers occur", () => {
    expect(cases).toHaveLength(actors.length * orderStatuses.length * requestableStatuses.length);
    expect(cases.filter((c) => c.decision === "allowed")).toHaveLength(
      2 * managementMoves.length + customerMoves.length,
    );
  });

  it("ends in completed and cancelled: nobody moves an order from there", () => {
    for (const { who } of actors) {
      for (const from of ["completed", "cancelled"] as const) {
        for (const to of requestableStatuses) {
          expect(decideTransition(who, order(from), to)).not.toBe("allowed");
        }
      }
    }
  });

  it("lets the customer, the provider owner and administrators see the order; others not", () => {
    expect(canSeeOrder(actor(customer, "member"), order("pending"))).toBe(true);
    expect(canSeeOrder(actor(providerOwner, "provider"), order("pending"))).toBe(true);
    expect(canSeeOrder(actor(someone, "admin"), order("pending"))).toBe(true);
    expect(canSeeOrder(actor(someone, "member"), order("pending"))).toBe(false);
  });
});
