import { z } from "zod";
import { idempotencyKeyHeaderSchema, timestampSchema } from "./common";

export const paymentStatusSchema = z.enum([
  "unpaid",
  "payment_submitted",
  "payment_confirmed",
  "payment_rejected",
  "refunded",
]);
export const paymentMethodSchema = z.enum(["walletone_qr", "wallettwo_qr"]);

/** Payment creation's headers: an Idempotency-Key is required. */
export const createPaymentHeadersSchema = z.object({ "idempotency-key": idempotencyKeyHeaderSchema });

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
    media_asset_id: z.uuid().optional(),
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
