import type { Actor } from "../shared/actor";
import { NotFoundError } from "../shared/app-error";
import type { PaymentRepositories, PaymentWithParties } from "./payments.ports";

/** The caller's own payment (as its payer); 404 otherwise. */
export const findOwnPayment = async (
  repos: Pick<PaymentRepositories, "payments">,
  actor: Actor,
  paymentId: string,
): Promise<PaymentWithParties> => {
  const payment = await repos.payments.findById(paymentId);
  if (!payment || payment.payerId !== actor.userId) {
    throw new NotFoundError("Payment");
  }

  return payment;
};
