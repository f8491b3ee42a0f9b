import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import { canSubmitPayment } from "./payments.policy";
import type { PaymentRepositories, PaymentWithParties } from "./payments.ports";

/** The caller's own payment (as its payer: canSubmitPayment); 404 otherwise. */
export const findOwnPayment = async (
  repos: Pick<PaymentRepositories, "payments">,
  actor: Actor,
  paymentId: string,
): Promise<PaymentWithParties> => {
  const payment = await repos.payments.findById(paymentId);
  if (!payment || !canSubmitPayment(actor, payment)) {
    throw new NotFoundError("Payment");
  }

  return payment;
};
