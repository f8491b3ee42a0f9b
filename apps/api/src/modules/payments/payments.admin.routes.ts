import { idParamSchema } from "@agora/contracts/common";
import { successEnvelope } from "@agora/contracts/envelope";
import { paymentSchema, paymentStatusSchema } from "@agora/contracts/payments";
import { adminPaymentSchema } from "@agora/contracts/payments.admin";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { adminListPayments } from "@agora/domain/payments/admin-list-payments";
import type { PaymentsDeps } from "@agora/domain/payments/payments.deps";
import type { PaymentStatus } from "@agora/domain/payments/payments.types";
import { rejectPayment } from "@agora/domain/payments/reject-payment";
import { createRoute } from "@hono/zod-openapi";
import { actorOf, requireAuth, requireRoles } from "../../http/middleware/auth";
import { createRouter, errors, json } from "../../http/openapi";
import { ok } from "../../http/respond";
import type { CollectionKind } from "../administration/administration.kinds";
import { toPaymentDto } from "./payments.presenter";

/** Mounted at /api/v1/admin. */
export const createPaymentAdminRoutes = ({
  identity,
  payments,
}: {
  identity: IdentityDeps;
  payments: PaymentsDeps;
}) => {
  const reject = createRoute({
    method: "post",
    path: "/payments/{id}/reject",
    tags: ["Administration"],
    summary: "Reject a submitted payment (administrators)",
    description:
      "Audited; the order's payment status follows; the payer may submit again. Not awaiting review: 409.",
    security: [{ bearerAuth: [] }],
    middleware: [requireAuth(identity), requireRoles("admin")],
    request: { params: idParamSchema },
    responses: {
      200: json(successEnvelope(paymentSchema), "Rejected."),
      ...errors("unauthorized", "forbidden", "not_found", "payment_conflict"),
    },
  });

  return createRouter().openapi(reject, async (c) =>
    ok(
      c,
      toPaymentDto(await rejectPayment(payments, actorOf(c), c.req.valid("param").id), payments.settings),
    ),
  );
};

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
