import type { Actor } from "../shared/actor";
import { NotFoundError } from "../shared/app-error";
import { findOwnPayment } from "./own-payment";
import type { PaymentsDeps } from "./payments.deps";
import { PaymentConflictError } from "./payments.errors";
import type { Payment } from "./payments.types";

/** Stores the payer's evidence (an uploaded media asset and/or a note) on an open payment. */
export const addPaymentEvidence = async (
  deps: Pick<PaymentsDeps, "repos" | "clock">,
  actor: Actor,
  input: { paymentId: string; mediaAssetId: string | undefined; note: string | undefined },
): Promise<Payment> => {
  const payment = await findOwnPayment(deps.repos, actor, input.paymentId);
  if (payment.status === "payment_confirmed" || payment.status === "refunded") {
    throw new PaymentConflictError("This payment is settled; evidence can no longer be added.");
  }
  const updated = await deps.repos.payments.addEvidence(
    payment.id,
    { mediaAssetId: input.mediaAssetId ?? null, note: input.note ?? null },
    deps.clock.now(),
  );
  if (!updated) {
    throw new NotFoundError("Payment");
  }

  return updated;
};
