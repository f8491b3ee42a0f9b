import { z } from "zod";
import { idParamSchema } from "./common";
import { type CollectionKind, defineOperations } from "./operation";
import { paymentSchema, paymentStatusSchema } from "./payments";

/** `GET /admin/payments` items: the payment and who pays it. */
export const adminPaymentSchema = paymentSchema.extend({ payer_id: z.string() }).meta({ id: "AdminPayment" });
export type AdminPaymentDto = z.infer<typeof adminPaymentSchema>;

/** The administrators' payment decisions (the payment collection: `GET /admin/{kind}`). */
export const paymentsAdminOperations = defineOperations({
  adminPaymentsReject: {
    method: "POST",
    path: "/api/v1/admin/payments/{id}/reject",
    auth: "bearer",
    tags: ["Administration"],
    summary: "Reject a submitted payment (administrators)",
    params: idParamSchema,
    responses: { 200: { description: "Rejected.", data: paymentSchema } },
    errors: ["unauthorized", "forbidden", "not_found", "payment_conflict"],
  },
});

/** `GET /admin/payments`. */
export const paymentsCollection = {
  status: paymentStatusSchema,
  item: adminPaymentSchema,
  searches: "an id: the payment's, its order's, its listing's or its payer's",
} as const satisfies CollectionKind;
