import { paymentStatusSchema } from "@agora/contracts/payments";
import { adminPaymentSchema, paymentsAdminOperations } from "@agora/contracts/payments.admin";
import { adminListPayments } from "@agora/domain/payments/admin-list-payments";
import type { PaymentsDeps } from "@agora/domain/payments/payments.deps";
import type { PaymentStatus } from "@agora/domain/payments/payments.types";
import { rejectPayment } from "@agora/domain/payments/reject-payment";
import { actorOf } from "../../http/middleware/auth";
import { type Handled, handle } from "../../http/operations";
import { ok } from "../../http/respond";
import type { CollectionKind } from "../administration/administration.kinds";
import { toPaymentDto } from "./payments.presenter";

export const paymentAdminRoutes = ({ payments }: { payments: PaymentsDeps }): Handled[] => [
  handle(
    paymentsAdminOperations.adminPaymentsReject,
    async (c) =>
      ok(
        c,
        toPaymentDto(await rejectPayment(payments, actorOf(c), c.req.valid("param").id), payments.settings),
      ),
    { roles: ["admin"] },
  ),
];

/** `GET /admin/payments`. */
export const paymentsKind = ({ payments }: { payments: PaymentsDeps }): CollectionKind<PaymentStatus> => ({
  status: paymentStatusSchema,
  searches: "an id: the payment's, its order's, its listing's or its payer's",
  item: adminPaymentSchema,
  list: async (actor, filter, page) => {
    const found = await adminListPayments(payments, actor, filter, page);

    return {
      total: found.total,
      items: found.items.map((payment) => ({
        ...toPaymentDto(payment, payments.settings),
        payer_id: payment.payerId,
      })),
    };
  },
});
