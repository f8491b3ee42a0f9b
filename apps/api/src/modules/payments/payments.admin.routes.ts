import { idParamSchema } from "@agora/contracts/common";
import { successEnvelope } from "@agora/contracts/envelope";
import { paymentSchema } from "@agora/contracts/payments";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import type { PaymentsDeps } from "@agora/domain/payments/payments.deps";
import { rejectPayment } from "@agora/domain/payments/reject-payment";
import { createRoute } from "@hono/zod-openapi";
import { actorOf, requireAuth, requireRoles } from "../../http/middleware/auth";
import { createRouter, errors, json } from "../../http/openapi";
import { ok } from "../../http/respond";
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
    responses: { 200: json(successEnvelope(paymentSchema), "Rejected."), ...errors(401, 403, 404, 409) },
  });

  return createRouter().openapi(reject, async (c) =>
    ok(
      c,
      toPaymentDto(await rejectPayment(payments, actorOf(c), c.req.valid("param").id), payments.settings),
    ),
  );
};
