import { z } from "zod";
import { paymentSchema } from "./payments";

/** `GET /admin/payments` items: the payment and who pays it. */
export const adminPaymentSchema = paymentSchema.extend({ payer_id: z.string() }).meta({ id: "AdminPayment" });
export type AdminPaymentDto = z.infer<typeof adminPaymentSchema>;
