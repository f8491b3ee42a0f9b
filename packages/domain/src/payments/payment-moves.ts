import type { PaymentStatus } from "./payments.types";

/**
 * The moves of a payment, a claim and its review:
 *
 * | move      | from                         | to                  | who                                    |
 * | --------- | ---------------------------- | ------------------- | -------------------------------------- |
 * | `submit`  | `unpaid`, `payment_rejected` | `payment_submitted` | its payer (canSubmitPayment)           |
 * | `confirm` | `payment_submitted`          | `payment_confirmed` | see canConfirmPayment                  |
 * | `reject`  | `payment_submitted`          | `payment_rejected`  | administrators (PAYMENT_REJECTER_ROLES) |
 *
 * `payment_confirmed` is final, and so is `refunded` (no move leads there yet). The repository's
 * compare-and-set statements are written from this table, so two concurrent moves cannot both
 * succeed and the SQL cannot disagree with it. Who may make a move is the policy's
 * (payments.policy.ts); this file is the state machine alone, the facts a repository may use.
 */
export const paymentMoves = {
  submit: { from: ["unpaid", "payment_rejected"], to: "payment_submitted" },
  confirm: { from: ["payment_submitted"], to: "payment_confirmed" },
  reject: { from: ["payment_submitted"], to: "payment_rejected" },
} as const satisfies Record<string, { from: readonly PaymentStatus[]; to: PaymentStatus }>;

export type PaymentMove = keyof typeof paymentMoves;

/** Where `move` takes a payment in status `from`; null when the move is not open from there (409). */
export const paymentMoveTarget = (from: PaymentStatus, move: PaymentMove): PaymentStatus | null =>
  (paymentMoves[move].from as readonly PaymentStatus[]).includes(from) ? paymentMoves[move].to : null;
