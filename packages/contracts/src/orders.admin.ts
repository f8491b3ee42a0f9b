import { z } from "zod";
import { defineOperations } from "./operation";
import { orderSchema, orderTransition } from "./orders";

/** `GET /admin/orders` items: the order and, for a guest order, the guest's email. */
export const adminOrderSchema = orderSchema
  .extend({
    guest_email: z.string().nullable().meta({ description: "A guest order's email; null for members." }),
  })
  .meta({ id: "AdminOrder" });
export type AdminOrderDto = z.infer<typeof adminOrderSchema>;

/** The administrators' order moves (the order collection: `GET /admin/{kind}`). */
export const ordersAdminOperations = defineOperations({
  adminOrdersTransition: {
    method: "POST",
    path: "/api/v1/admin/orders/{id}/transition",
    auth: "bearer",
    tags: ["Administration"],
    summary: "Move an order (administrators)",
    ...orderTransition,
  },
});
