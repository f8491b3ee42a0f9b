import { paymentsAdminOperations, paymentsCollection } from "@agora/contracts/payments.admin";
import { adminListPayments } from "@agora/domain/payments/admin-list-payments";
import type { PaymentsDeps } from "@agora/domain/payments/payments.deps";
import { rejectPayment } from "@agora/domain/payments/reject-payment";
import { actorOf } from "../../http/middleware/auth";
import { type Handled, handle } from "../../http/operations";
import { ok } from "../../http/respond";
import { type AdminKinds, collectionKind } from "../administration/administration.kinds";
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

/** The payment kind, with who pays each. */
export const paymentAdminKinds = ({ payments }: { payments: PaymentsDeps }): AdminKinds => ({
  collections: {
    payments: collectionKind(paymentsCollection, async (actor, filter, page) => {
      const found = await adminListPayments(payments, actor, filter, page);

      return {
        total: found.total,
        items: found.items.map((payment) => ({
          ...toPaymentDto(payment, payments.settings),
          payer_id: payment.payerId,
        })),
      };
    }),
  },
});
