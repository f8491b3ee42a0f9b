import { z } from "zod";
import { idParamSchema, timestampSchema } from "./common";
import { defineOperations } from "./operation";

export const paymentStatusSchema = z.enum([
  "unpaid",
  "payment_submitted",
  "payment_confirmed",
  "payment_rejected",
  "refunded",
]);
export const paymentMethodSchema = z.enum(["walletone_qr", "wallettwo_qr"]);

export const paymentSchema = z
  .object({
    id: z.string(),
    purpose: z.enum(["order", "listing_subscription"]),
    purpose_id: z.string(),
    amount: z.number().int(),
    currency: z.string(),
    status: paymentStatusSchema,
    method: paymentMethodSchema,
    version: z.number().int(),
    instructions: z
      .string()
      .max(2000)
      .optional()
      .meta({ description: "Omitted when not configured for the method." }),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: "Payment" });
export type PaymentDto = z.infer<typeof paymentSchema>;

export const createPaymentRequestSchema = z
  .object({ method: paymentMethodSchema })
  .meta({ example: { method: "walletone_qr" } });

export const submitPaymentRequestSchema = z
  .object({
    method: paymentMethodSchema,
    version: z.number().int().min(1),
  })
  .meta({ example: { method: "walletone_qr", version: 1 } });

export const paymentEvidenceRequestSchema = z
  .object({
    media_asset_id: z
      .uuid()
      .optional()
      .meta({
        description:
          "One of your own assets uploaded for `payment_evidence`, right after its upload: taken at once, read " +
          "with `GET /api/v1/media/{id}` (`processing`, without a URL, until it is ready; 422 once `rejected`).",
      }),
    note: z.string().trim().min(1).max(2000).optional(),
  })
  .refine((evidence) => evidence.media_asset_id !== undefined || evidence.note !== undefined, {
    message: "send media_asset_id, note, or both",
    path: ["body"],
  })
  .meta({
    example: {
      media_asset_id: "01935c2f-0c32-7e44-8f50-6b7c8d9eafb0",
      note: "Paid at 14:05, reference 8812.",
    },
  });

const tags = ["Payments"];

/** What starting a payment takes (the method, an Idempotency-Key for retries) and answers. */
const startPayment = {
  params: idParamSchema,
  idempotencyKey: "required",
  body: createPaymentRequestSchema,
  responses: { 201: { description: "Created (or replayed).", data: paymentSchema } },
  errors: ["unauthorized", "not_found", "payment_conflict", "validation_failed"],
} as const;

/** Payments by transfer: started by the payer, claimed, evidenced, confirmed by the payee. */
export const paymentsOperations = defineOperations({
  orderPaymentsCreate: {
    method: "POST",
    path: "/api/v1/orders/{id}/payments",
    auth: "bearer",
    tags,
    summary: "Start paying for an order (its customer)",
    ...startPayment,
  },
  listingSubscriptionPaymentsCreate: {
    method: "POST",
    path: "/api/v1/listings/{id}/subscription-payments",
    auth: "bearer",
    tags,
    summary: "Start paying a listing's subscription (its owner)",
    ...startPayment,
    errors: [...startPayment.errors, "forbidden", "plan_unavailable"],
  },
  paymentsSubmit: {
    method: "POST",
    path: "/api/v1/payments/{id}/submit",
    auth: "bearer",
    tags,
    summary: "Claim the transfer was made (the payer)",
    params: idParamSchema,
    body: submitPaymentRequestSchema,
    responses: { 200: { description: "Submitted.", data: paymentSchema } },
    errors: ["unauthorized", "not_found", "payment_conflict", "validation_failed"],
  },
  paymentsEvidenceAttach: {
    method: "POST",
    path: "/api/v1/payments/{id}/evidence",
    auth: "bearer",
    tags,
    summary: "Attach evidence of the transfer (the payer)",
    idempotencyKey: "optional",
    params: idParamSchema,
    body: paymentEvidenceRequestSchema,
    responses: { 200: { description: "Stored.", data: paymentSchema } },
    errors: ["unauthorized", "not_found", "payment_conflict", "validation_failed", "storage_unavailable"],
  },
  paymentsConfirm: {
    method: "POST",
    path: "/api/v1/payments/{id}/confirm",
    auth: "bearer",
    tags,
    summary: "Confirm a submitted payment",
    params: idParamSchema,
    responses: { 200: { description: "Confirmed.", data: paymentSchema } },
    errors: ["unauthorized", "forbidden", "not_found", "payment_conflict"],
  },
});
