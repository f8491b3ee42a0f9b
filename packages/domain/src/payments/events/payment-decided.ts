import { z } from "zod";
import type { NotificationRequest } from "../../notifications/notify";
import type { DeliverableEvent } from "../../outbox/event-kind";

/** The payload of a review decision (payment.confirmed, payment.rejected). */
export const paymentDecidedPayload = z.object({
  payment_id: z.uuid(),
  purpose: z.enum(["order", "listing_subscription"]),
  purpose_id: z.uuid(),
  payer_id: z.uuid(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.enum(["payment_confirmed", "payment_rejected"]),
});
export type PaymentDecidedPayload = z.infer<typeof paymentDecidedPayload>;

/** The payer is told the decision. */
export const payerNotice = (event: DeliverableEvent<PaymentDecidedPayload>): NotificationRequest[] => {
  const { payload } = event;
  const verb = payload.status === "payment_confirmed" ? "confirmed" : "rejected";

  return [
    {
      userId: payload.payer_id,
      kind: `payment.${payload.status}`,
      title: `Payment ${verb}`,
      body: `${payload.amount} ${payload.currency}`,
      data: { payment_id: payload.payment_id, purpose: payload.purpose, purpose_id: payload.purpose_id },
    },
  ];
};
