import type { Actor } from "../common/actor";
import { ForbiddenError, NotFoundError } from "../common/app-error";
import { isAdmin } from "../identity/identity.policy";
import { requireProviderStandingOf } from "../marketplace/provider-standing";
import type { PaymentsDeps } from "./payments.deps";
import { canConfirmPayment, canSeePayment } from "./payments.policy";
import type { Payment } from "./payments.types";
import { recordDecision } from "./record-decision";

/**
 * Confirms a submitted payment. Order payments: the owning provider or an administrator; the
 * order's payment status follows, its workflow is untouched. Subscription payments: administrators
 * only; the subscription becomes active and its expiry advances by the plan duration from the
 * later of now and the current expiry, and a draft listing of an approved provider is published —
 * all in one transaction, audited. Not awaiting review: 409 payment_conflict. A provider whose
 * approval was withdrawn (demoted to member) confirms nothing (403, provider-standing.ts).
 */
export const confirmPayment = async (
  deps: Pick<PaymentsDeps, "uow" | "repos" | "clock">,
  actor: Actor,
  paymentId: string,
): Promise<Payment> => {
  const payment = await deps.repos.payments.findById(paymentId);
  if (!payment || !canSeePayment(actor, payment)) {
    throw new NotFoundError("Payment");
  }
  if (!canConfirmPayment(actor, payment)) {
    throw new ForbiddenError(
      payment.purpose === "order"
        ? "Only the provider or an administrator can confirm this payment."
        : "Only an administrator can confirm a subscription payment.",
    );
  }
  if (!isAdmin(actor)) {
    await requireProviderStandingOf(deps.repos, actor.userId);
  }
  const now = deps.clock.now();

  return deps.uow.run((tx) => recordDecision(tx, actor, payment, "confirm", now));
};
