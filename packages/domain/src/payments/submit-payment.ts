import type { Actor } from "../common/actor";
import { paymentSubmitted } from "./events/payment-submitted";
import { findOwnPayment } from "./own-payment";
import { paymentMoveTarget } from "./payment-moves";
import type { PaymentsDeps } from "./payments.deps";
import { PaymentConflictError } from "./payments.errors";
import type { Payment, PaymentMethod } from "./payments.types";

/**
 * The payer claims the transfer was made (a claim, not proof): the `submit` move (unpaid or
 * rejected → submitted, see payment-moves.ts) when `version` is current. Sent again with the version it was sent with, by the payer with the same
 * method, it answers the current payment (a retry after a lost response); any other stale version,
 * or a payment no longer open, is 409 payment_conflict.
 */
export const submitPayment = async (
  deps: Pick<PaymentsDeps, "uow" | "repos" | "clock">,
  actor: Actor,
  input: { paymentId: string; method: PaymentMethod; version: number },
): Promise<Payment> => {
  const payment = await findOwnPayment(deps.repos, actor, input.paymentId);
  if (
    payment.status === "payment_submitted" &&
    payment.version === input.version + 1 &&
    payment.method === input.method
  ) {
    return payment;
  }
  if (payment.version !== input.version || paymentMoveTarget(payment.status, "submit") === null) {
    throw new PaymentConflictError();
  }
  const now = deps.clock.now();

  return deps.uow.run(async (tx) => {
    const submitted = await tx.payments.submit(payment.id, input.version, input.method, now);
    if (!submitted) {
      throw new PaymentConflictError();
    }
    if (submitted.purpose === "order") {
      await tx.orders.setPaymentStatus(submitted.purposeId, "payment_submitted", now);
    }
    await tx.outbox.append(
      paymentSubmitted.event(submitted.id, {
        payment_id: submitted.id,
        purpose: submitted.purpose,
        purpose_id: submitted.purposeId,
        amount: submitted.amount,
        currency: submitted.currency,
        provider_user_id: payment.providerUserId,
      }),
      now,
    );

    return submitted;
  });
};
