import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import { requireRole } from "../identity/identity.policy";
import type { PaymentsDeps } from "./payments.deps";
import { PAYMENT_REJECTER_ROLES } from "./payments.policy";
import type { Payment } from "./payments.types";
import { recordDecision } from "./record-decision";

/** Administrators reject a submitted payment (409 when not awaiting review), audited; the order follows. */
export const rejectPayment = async (
  deps: Pick<PaymentsDeps, "uow" | "repos" | "clock">,
  actor: Actor,
  paymentId: string,
): Promise<Payment> => {
  requireRole(actor, ...PAYMENT_REJECTER_ROLES);
  const payment = await deps.repos.payments.findById(paymentId);
  if (!payment) {
    throw new NotFoundError("Payment");
  }
  const now = deps.clock.now();

  return deps.uow.run((tx) => recordDecision(tx, actor, payment, "reject", now));
};
