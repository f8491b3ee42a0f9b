import type { Actor, Role } from "../common/actor";
import { isAdmin } from "../identity/identity.policy";
import type { PaymentWithParties } from "./payments.ports";
import type { PaymentStatus } from "./payments.types";

/** Who may know a payment exists: its payer, its provider owner, administrators. */
export const canSeePayment = (actor: Actor, payment: PaymentWithParties): boolean =>
  isAdmin(actor) || payment.payerId === actor.userId || payment.providerUserId === actor.userId;

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
 * succeed and the SQL cannot disagree with it.
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

/** Who may submit (claim the transfer was made): the payer only; anyone else is told it does not exist (404). */
export const canSubmitPayment = (actor: Actor, payment: Pick<PaymentWithParties, "payerId">): boolean =>
  payment.payerId === actor.userId;

/**
 * Who may confirm: an order payment, its provider owner or an administrator; a listing
 * subscription payment, administrators only.
 */
export const canConfirmPayment = (actor: Actor, payment: PaymentWithParties): boolean =>
  isAdmin(actor) || (payment.purpose === "order" && payment.providerUserId === actor.userId);

/** Who may reject a payment: administrators only (any other role is 403, whatever the payment). */
export const PAYMENT_REJECTER_ROLES: readonly Role[] = ["admin"];

/** Evidence may be added while the payment is not settled (confirmed or refunded: 409). */
export const acceptsPaymentEvidence = (status: PaymentStatus): boolean =>
  status !== "payment_confirmed" && status !== "refunded";
