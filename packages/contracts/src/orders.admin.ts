import { z } from "zod";
import { type CollectionKind, defineOperations } from "./operation";
import { orderSchema, orderStatusSchema, orderTransition } from "./orders";

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

/** `GET /admin/orders`: administrators see every order, accountants those of their services. */
export const ordersCollection = {
  status: orderStatusSchema,
  item: adminOrderSchema,
  searches: "a substring of the item name or the guest's email, or the order id",
  readers: "administrators, and accountants for the orders of the services assigned to them",
} as const satisfies CollectionKind;
