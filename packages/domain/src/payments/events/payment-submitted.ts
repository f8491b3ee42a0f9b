import { z } from "zod";
import { type NotifyDeps, notify } from "../../notifications/notify";
import { defineEventKind } from "../../outbox/event-kind";

/** The payer claims the transfer was made: an order payment's provider has one to review. */
export const paymentSubmitted = defineEventKind({
  kind: "payment.submitted",
  aggregateType: "payment",
  payload: z.object({
    payment_id: z.uuid(),
    purpose: z.enum(["order", "listing_subscription"]),
    purpose_id: z.uuid(),
    amount: z.number().int(),
    currency: z.string(),
    provider_user_id: z.uuid(),
  }),
  // Subscription payments are reviewed by administrators from their console, not notified.
  deliver: (deps: NotifyDeps, event) => {
    const { payload } = event;

    return notify(
      deps,
      event,
      payload.purpose === "order"
        ? [
            {
              userId: payload.provider_user_id,
              kind: event.kind,
              title: "Payment to review",
              body: `${payload.amount} ${payload.currency}`,
              data: { payment_id: payload.payment_id, order_id: payload.purpose_id },
            },
          ]
        : [],
    );
  },
});
