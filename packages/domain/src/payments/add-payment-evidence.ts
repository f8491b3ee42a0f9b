import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import { attachMedia, prepareAttachment } from "../media/attach-media";
import { findOwnPayment } from "./own-payment";
import type { PaymentsDeps } from "./payments.deps";
import { PaymentConflictError } from "./payments.errors";
import { acceptsPaymentEvidence } from "./payments.policy";
import type { Payment } from "./payments.types";

const assetField = () => "media_asset_id";

/**
 * Stores the payer's evidence (an uploaded media asset and/or a note) on an open payment. The
 * asset must be the payer's own, uploaded for `payment_evidence`, confirmed in the store and not
 * attached elsewhere (422); it stays private, readable by the payment's reviewers. Sending the
 * asset the payment already has again changes nothing.
 */
export const addPaymentEvidence = async (
  deps: Pick<PaymentsDeps, "uow" | "repos" | "clock" | "objects">,
  actor: Actor,
  input: { paymentId: string; mediaAssetId: string | undefined; note: string | undefined },
): Promise<Payment> => {
  const payment = await findOwnPayment(deps.repos, actor, input.paymentId);
  if (!acceptsPaymentEvidence(payment.status)) {
    throw new PaymentConflictError("This payment is settled; evidence can no longer be added.");
  }
  const assets =
    input.mediaAssetId !== undefined && input.mediaAssetId !== payment.evidenceMediaAssetId
      ? [input.mediaAssetId]
      : [];
  await prepareAttachment(deps, actor, assets, "payment_evidence", assetField);
  const now = deps.clock.now();

  return deps.uow.run(async (tx) => {
    await attachMedia(tx, actor, assets, "payment_evidence", { at: now, public: false, field: assetField });
    const updated = await tx.payments.addEvidence(
      payment.id,
      { mediaAssetId: input.mediaAssetId ?? null, note: input.note ?? null },
      now,
    );
    if (!updated) {
      throw new NotFoundError("Payment");
    }

    return updated;
  });
};
