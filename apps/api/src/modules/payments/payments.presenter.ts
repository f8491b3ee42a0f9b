import type { PaymentDto } from "@agora/contracts/payments";
import type { PaymentSettings } from "@agora/domain/payments/payments.deps";
import type { Payment } from "@agora/domain/payments/payments.types";

export const toPaymentDto = (
  payment: Payment,
  settings: Pick<PaymentSettings, "paymentInstructions">,
): PaymentDto => {
  const instructions = settings.paymentInstructions[payment.method];

  return {
    id: payment.id,
    purpose: payment.purpose,
    purpose_id: payment.purposeId,
    amount: payment.amount,
    currency: payment.currency,
    status: payment.status,
    method: payment.method,
    version: payment.version,
    ...(instructions ? { instructions } : {}),
    created_at: payment.createdAt.toISOString(),
    updated_at: payment.updatedAt.toISOString(),
  };
};
