import type { Actor, Role } from "../common/actor";
import { isAdmin } from "../identity/identity.policy";
import type { PaymentWithParties } from "./payments.ports";
import type { PaymentStatus } from "./payments.types";

/** Who may know a payment exists: its payer, its provider owner, administrators. */
export const canSeePayment = (actor: Actor, payment: PaymentWithParties): boolean =>
  isAdmin(actor) || payment.payerId === actor.userId || payment.providerUserId === actor.userId;

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
