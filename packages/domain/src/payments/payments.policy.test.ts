import { describe, expect, it } from "vitest";
import type { Actor, Role } from "../common/actor";
import { type PaymentMove, paymentMoveTarget } from "./payment-moves";
import {
  acceptsPaymentEvidence,
  canConfirmPayment,
  canSeePayment,
  canSubmitPayment,
  PAYMENT_REJECTER_ROLES,
} from "./payments.policy";
import type { PaymentWithParties } from "./payments.ports";
import { type PaymentPurpose, type PaymentStatus, paymentStatuses } from "./payments.types";

const payer = "0190a000-0000-7000-8000-0000000000a1";
const providerOwner = "0190a000-0000-7000-8000-0000000000b2";
const someone = "0190a000-0000-7000-8000-0000000000c3";
const actor = (userId: string, role: Role): Actor => ({ userId, role, sessionId: "s" });

const payment = (
  purpose: PaymentPurpose,
  status: PaymentStatus = "payment_submitted",
): PaymentWithParties => ({
  id: "p",
  purpose,
  purposeId: "x",
  payerId: payer,
  amount: 1000,
  currency: "USD",
  status,
  method: "walletone_qr",
  version: 2,
  planDurationDays: purpose === "order" ? null : 30,
  evidenceMediaAssetId: null,
  evidenceNote: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  providerUserId: providerOwner,
  orderCustomerId: purpose === "order" ? payer : null,
});

/** Every open move, as [from, move, to]; every other (status, move) pair is refused (409). */
const allowed: [PaymentStatus, PaymentMove, PaymentStatus][] = [
  ["unpaid", "submit", "payment_submitted"],
  ["payment_rejected", "submit", "payment_submitted"],
  ["payment_submitted", "confirm", "payment_confirmed"],
  ["payment_submitted", "reject", "payment_rejected"],
];
const moves: PaymentMove[] = ["submit", "confirm", "reject"];

describe("payment moves", () => {
  const cases = paymentStatuses.flatMap((from) =>
    moves.map((move) => {
      const to = allowed.find(([f, m]) => f === from && m === move)?.[2] ?? null;

      return { from, move, to, outcome: to === null ? "refused (409)" : `→ ${to}` };
    }),
  );

  it.each(cases)("$from, $move: $outcome", ({ from, move, to }) => {
    expect(paymentMoveTarget(from, move)).toBe(to);
  });

  it("leaves confirmed and refunded payments final", () => {
    for (const move of moves) {
      expect(paymentMoveTarget("payment_confirmed", move)).toBeNull();
      expect(paymentMoveTarget("refunded", move)).toBeNull();
    }
  });

  it.each([
    ["unpaid", true],
    ["payment_submitted", true],
    ["payment_rejected", true],
    ["payment_confirmed", false],
    ["refunded", false],
  ] as const)("takes evidence while %s: %s", (status, accepted) => {
    expect(acceptsPaymentEvidence(status)).toBe(accepted);
  });
});

describe("who moves a payment", () => {
  it.each([
    ["its payer", actor(payer, "member"), true],
    ["the provider owner", actor(providerOwner, "provider"), false],
    ["an administrator", actor(someone, "admin"), false],
    ["anyone else", actor(someone, "member"), false],
  ] as const)("submit: %s → %s", (_, who, may) => {
    expect(canSubmitPayment(who, payment("order", "unpaid"))).toBe(may);
  });

  it.each([
    ["order", "the provider owner", actor(providerOwner, "provider"), true],
    ["order", "an administrator", actor(someone, "admin"), true],
    ["order", "its payer", actor(payer, "member"), false],
    ["order", "an accountant", actor(someone, "accountant"), false],
    ["order", "another provider", actor(someone, "provider"), false],
    ["listing_subscription", "an administrator", actor(someone, "admin"), true],
    ["listing_subscription", "the listing's owner", actor(providerOwner, "provider"), false],
    ["listing_subscription", "its payer", actor(payer, "provider"), false],
  ] as const)("confirm an %s payment: %s → %s", (purpose, _, who, may) => {
    expect(canConfirmPayment(who, payment(purpose))).toBe(may);
  });

  it.each([
    ["member", false],
    ["provider", false],
    ["accountant", false],
    ["admin", true],
  ] as const)("reject: a %s → %s", (role, may) => {
    expect(PAYMENT_REJECTER_ROLES.includes(role)).toBe(may);
  });

  it("lets the payer, the provider owner and administrators know the payment exists, nobody else", () => {
    expect(canSeePayment(actor(payer, "member"), payment("order"))).toBe(true);
    expect(canSeePayment(actor(providerOwner, "provider"), payment("order"))).toBe(true);
    expect(canSeePayment(actor(someone, "admin"), payment("order"))).toBe(true);
    expect(canSeePayment(actor(someone, "accountant"), payment("order"))).toBe(false);
    expect(canSeePayment(actor(someone, "member"), payment("order"))).toBe(false);
  });
});
