import { isAdmin } from "../identity/identity.policy";
import type { Actor } from "../shared/actor";
import type { PaymentWithParties } from "./payments.ports";

/** Who may know a payment exists: its payer, its provider owner, administrators. */
export const canSeePayment = (actor: Actor, payment: PaymentWithParties): boolean =>
  isAdmin(actor) || payment.payerId === actor.userId || payment.providerUserId === actor.userId;

/**
 * Who may confirm (SPEC Authentication item 7): an order payment, its provider owner or an
 * administrator; a listing subscription payment, administrators only.
 */
export const canConfirmPayment = (actor: Actor, payment: PaymentWithParties): boolean =>
  isAdmin(actor) || (payment.purpose === "order" && payment.providerUserId === actor.userId);
