import { z } from "zod";
import { dateTimeInputSchema, idParamSchema, pageQuerySchema, timestampSchema } from "./common";
import { pageMetaSchema } from "./envelope";
import { defineOperations } from "./operation";
import { paymentStatusSchema } from "./payments";

export const orderStatusSchema = z.enum(["pending", "confirmed", "in_progress", "completed", "cancelled"]);

export const createOrderRequestSchema = z
  .object({
    menu_item_id: z.string().min(1).max(64),
    quantity: z.number().int().min(1).max(100),
    schedule_at: dateTimeInputSchema.optional().meta({ description: "Stored only; not a scheduler." }),
    notes: z.string().trim().max(2000).optional(),
    email: z
      .string()
      .trim()
      .toLowerCase()
      .max(254)
      .pipe(z.email("must be an email address"))
      .optional()
      .meta({ description: "Guests only (required); ignored with a bearer token." }),
    phone: z
      .string()
      .trim()
      .min(3)
      .max(32)
      .regex(/^[0-9+()\-. ]+$/, "may contain digits, spaces and + ( ) - .")
      .optional()
      .meta({ description: "Guests only (required); ignored with a bearer token." }),
  })
  .meta({
    example: {
      menu_item_id: "01935c2e-9b21-7d33-9e4f-5a6b7c8d9eaf",
      quantity: 2,
      schedule_at: "2026-12-01T18:00:00Z",
      notes: "No nuts, please.",
    },
  });

export const orderSchema = z
  .object({
    id: z.string(),
    customer_id: z.string().nullable().meta({ description: "null for a guest order." }),
    provider_id: z.string(),
    listing_id: z.string(),
    menu_item_id: z.string(),
    item_name: z.string(),
    unit_price_amount: z.number().int(),
    quantity: z.number().int(),
    total_amount: z.number().int(),
    currency: z.string(),
    status: orderStatusSchema,
    payment_status: paymentStatusSchema,
    version: z.number().int(),
    notes: z.string().nullable(),
    schedule_at: timestampSchema.nullable(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: "Order" });
export type OrderDto = z.infer<typeof orderSchema>;

export const createdOrderSchema = orderSchema
  .extend({
    guest_access_token: z.string().length(64).optional().meta({
      description: "Guest orders only, in this response once (and in replays of it): read the order with it.",
    }),
  })
  .meta({ id: "CreatedOrder" });
export type CreatedOrderDto = z.infer<typeof createdOrderSchema>;

export const guestAccessHeaderSchema = z.object({
  "x-guest-access-token": z
    .string()
    .optional()
    .meta({ description: "The 64-character capability; wrong or missing: 404." }),
});

export const transitionRequestSchema = z
  .object({
    status: z.enum(["confirmed", "in_progress", "completed", "cancelled"]),
    version: z.number().int().min(1),
  })
  .meta({ example: { status: "confirmed", version: 1 } });

/** What both order transitions (the member's and the administrators') take and answer. */
export const orderTransition = {
  params: idParamSchema,
  body: transitionRequestSchema,
  responses: { 200: { description: "Updated.", data: orderSchema } },
  errors: [
    "unauthorized",
    "forbidden",
    "not_found",
    "order_conflict",
    "validation_failed",
    "invalid_transition",
  ],
} as const;

/** The token of a guest receipt's unsubscribe link (from the link's fragment). */
export const guestUnsubscribeRequestSchema = z
  .object({
    token: z
      .string()
      .length(64)
      .regex(/^[0-9a-fA-F]{64}$/, "must be the 64 hex characters of the unsubscribe link")
      .meta({ description: "The token in the fragment of the receipt's unsubscribe link." }),
  })
  .meta({ example: { token: "9f2c4e1a7b3d5f60812a4c6e8b0d2f4a6c8e0b2d4f6a8c0e2b4d6f8a0c2e4b6d" } });

export const guestUnsubscribedSchema = z
  .object({ order_id: z.string(), mail: z.literal("stopped") })
  .meta({ id: "GuestMailStopped" });

const tags = ["Orders"];

/** Orders: a member's or a guest's, read by their parties, moved through their states. */
export const ordersOperations = defineOperations({
  ordersList: {
    method: "GET",
    path: "/api/v1/orders",
    auth: "bearer",
    tags,
    summary: "The caller's orders, as customer and as provider",
    query: pageQuerySchema(20),
    responses: {
      200: { description: "A page of orders.", data: z.array(orderSchema), meta: pageMetaSchema },
    },
    errors: ["unauthorized", "validation_failed"],
  },
  ordersCreate: {
    method: "POST",
    path: "/api/v1/orders",
    auth: "optional",
    tags,
    summary: "Place an order (member or guest)",
    // Required for guests (422 without it, see the handler), optional for members.
    idempotencyKey: "optional",
    body: createOrderRequestSchema,
    responses: { 201: { description: "Created (or replayed).", data: createdOrderSchema } },
    errors: ["unauthorized", "validation_failed", "item_unavailable", "rate_limited"],
  },
  guestOrdersGet: {
    method: "GET",
    path: "/api/v1/guest/orders/{id}",
    auth: "public",
    tags,
    summary: "A guest's order, by its access capability",
    params: idParamSchema,
    headers: guestAccessHeaderSchema,
    responses: { 200: { description: "The order.", data: orderSchema } },
    errors: ["not_found"],
  },
  guestOrdersUnsubscribe: {
    method: "POST",
    path: "/api/v1/guest/orders/{id}/unsubscribe",
    auth: "public",
    tags,
    summary: "Stop a guest order's mails (the receipt's unsubscribe link)",
    params: idParamSchema,
    body: guestUnsubscribeRequestSchema,
    responses: {
      200: { description: "Stopped (also when already stopped).", data: guestUnsubscribedSchema },
    },
    errors: ["not_found", "validation_failed"],
  },
  ordersGet: {
    method: "GET",
    path: "/api/v1/orders/{id}",
    auth: "bearer",
    tags,
    summary: "An order",
    params: idParamSchema,
    responses: { 200: { description: "The order.", data: orderSchema } },
    errors: ["unauthorized", "not_found"],
  },
  ordersTransition: {
    method: "POST",
    path: "/api/v1/orders/{id}/transition",
    auth: "bearer",
    tags,
    summary: "Move an order to another state",
    ...orderTransition,
  },
});
