import type { PaymentsDeps } from "./payments.deps";
import { PaymentConflictError } from "./payments.errors";
import type { NewPayment, PaymentRepositories } from "./payments.ports";
import type { Payment } from "./payments.types";

/** Inserts a new unpaid payment; 409 payment_conflict when its order or listing already has one open. */
export const openPayment = async (
  tx: Pick<PaymentRepositories, "payments">,
  { ids }: Pick<PaymentsDeps, "ids">,
  now: Date,
  fields: Omit<NewPayment, "id" | "createdAt">,
): Promise<Payment> => {
  const payment: Payment = {
    ...fields,
    id: ids.next(),
    status: "unpaid",
    version: 1,
    evidenceMediaAssetId: null,
    evidenceNote: null,
    createdAt: now,
    updatedAt: now,
  };
  if ((await tx.payments.create(payment)) === "open_exists") {
    throw new PaymentConflictError(
      payment.purpose === "order"
        ? "This order already has a payment."
        : "This listing already has an open subscription payment.",
    );
  }

  return payment;
};
