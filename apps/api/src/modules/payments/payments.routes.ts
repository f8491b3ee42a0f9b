import { paymentsOperations } from "@agora/contracts/payments";
import { addPaymentEvidence } from "@agora/domain/payments/add-payment-evidence";
import { confirmPayment } from "@agora/domain/payments/confirm-payment";
import { createOrderPayment } from "@agora/domain/payments/create-order-payment";
import { createSubscriptionPayment } from "@agora/domain/payments/create-subscription-payment";
import type { PaymentsDeps } from "@agora/domain/payments/payments.deps";
import type { Payment } from "@agora/domain/payments/payments.types";
import { submitPayment } from "@agora/domain/payments/submit-payment";
import { created, idempotencyRequest } from "../../http/idempotency";
import { actorOf } from "../../http/middleware/auth";
import { type Handled, handle, keyedByUseCase } from "../../http/operations";
import { ok } from "../../http/respond";
import { toPaymentDto } from "./payments.presenter";

export const paymentRoutes = ({ payments }: { payments: PaymentsDeps }): Handled[] => {
  const present = (payment: Payment) => toPaymentDto(payment, payments.settings);

  return [
    handle(
      paymentsOperations.orderPaymentsCreate,
      async (c) => {
        const actor = actorOf(c);
        const input = c.req.valid("json");
        const outcome = await createOrderPayment(
          payments,
          actor,
          { orderId: c.req.valid("param").id, method: input.method },
          idempotencyRequest(c, actor.userId, c.req.valid("header")["idempotency-key"], input),
        );

        return created(c, outcome, present);
      },
      keyedByUseCase,
    ),
    handle(
      paymentsOperations.listingSubscriptionPaymentsCreate,
      async (c) => {
        const actor = actorOf(c);
        const input = c.req.valid("json");
        const outcome = await createSubscriptionPayment(
          payments,
          actor,
          { listingId: c.req.valid("param").id, method: input.method },
          idempotencyRequest(c, actor.userId, c.req.valid("header")["idempotency-key"], input),
        );

        return created(c, outcome, present);
      },
      keyedByUseCase,
    ),
    handle(paymentsOperations.paymentsSubmit, async (c) => {
      const input = c.req.valid("json");
      const payment = await submitPayment(payments, actorOf(c), {
        paymentId: c.req.valid("param").id,
        method: input.method,
        version: input.version,
      });

      return ok(c, present(payment));
    }),
    handle(paymentsOperations.paymentsEvidenceAttach, async (c) => {
      const input = c.req.valid("json");
      const payment = await addPaymentEvidence(payments, actorOf(c), {
        paymentId: c.req.valid("param").id,
        mediaAssetId: input.media_asset_id,
        note: input.note,
      });

      return ok(c, present(payment));
    }),
    handle(paymentsOperations.paymentsConfirm, async (c) =>
      ok(c, present(await confirmPayment(payments, actorOf(c), c.req.valid("param").id))),
    ),
  ];
};
