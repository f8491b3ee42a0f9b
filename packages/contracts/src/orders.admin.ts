import { z } from "zod";
import { orderSchema } from "./orders";

/** `GET /admin/orders` items: the order and, for a guest order, the guest's email. */
export const adminOrderSchema = orderSchema
  .extend({
    guest_email: z.string().nullable().meta({ description: "A guest order's email; null for members." }),
  })
  .meta({ id: "AdminOrder" });
export type AdminOrderDto = z.infer<typeof adminOrderSchema>;
