import { idParamSchema } from "@agora/contracts/common";
import { pageMetaSchema, successEnvelope } from "@agora/contracts/envelope";
import {
  createdOrderSchema,
  createOrderRequestSchema,
  createPaymentRequestSchema,
  guestAccessHeaderSchema,
  idempotencyKeyHeaderSchema,
  orderSchema,
  paymentSchema,
  transitionRequestSchema,
} from "@agora/contracts/orders";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { type CreatedOrder, createOrder, type OrderCaller } from "@agora/domain/orders/create-order";
import { fingerprintOf } from "@agora/domain/orders/idempotency";
import type { OrdersDeps } from "@agora/domain/orders/orders.deps";
import type { Order } from "@agora/domain/orders/orders.types";
import { createOrderPayment } from "@agora/domain/orders/payments";
import { getGuestOrder, getOrder, listOrders } from "@agora/domain/orders/read-orders";
import { adminTransitionOrder, transitionOrder } from "@agora/domain/orders/transition-order";
import { ValidationError } from "@agora/domain/shared/app-error";
import { createRoute, z } from "@hono/zod-openapi";
import { replay, storedRefusal } from "../../http/idempotency";
import { actorOf, optionalAuth, requireAuth, requireRoles } from "../../http/middleware/auth";
import { body, createRouter, errors, json } from "../../http/openapi";
import { parsePage } from "../../http/pagination";
import { ok } from "../../http/respond";
import { toOrderDto, toPaymentDto } from "./orders.presenter";

const tags = ["Orders and payments"];
const secured = [{ bearerAuth: [] }];

export const createOrderRoutes = ({ identity, orders }: { identity: IdentityDeps; orders: OrdersDeps }) => {
  const auth = requireAuth(identity);

  const list = createRoute({
    method: "get",
    path: "/orders",
    tags,
    summary: "The caller's orders, as customer and as provider",
    description:
      "Newest first; `meta` carries `{ limit, offset, total }`. limit 1-100 (default 20), offset 0 or more; anything else is 422.",
    security: secured,
    middleware: [auth],
    request: { query: z.object({ limit: z.string().optional(), offset: z.string().optional() }) },
    responses: {
      200: json(successEnvelope(z.array(orderSchema), pageMetaSchema), "A page of orders."),
      ...errors(401, 422),
    },
  });

  const create = createRoute({
    method: "post",
    path: "/orders",
    tags,
    summary: "Place an order (member or guest)",
    description:
      "Optional bearer: with a valid token the customer is the caller; without an Authorization header the " +
      "request is a guest's and needs `email`, `phone` and an `Idempotency-Key`; a malformed or expired token " +
      "is 401, never a guest fallback. The server copies provider, listing, item name, unit price and currency " +
      "from the active menu item of a publicly visible listing (422 `item_unavailable` otherwise) and computes " +
      "the total (422 when it would exceed 2^53-1). A guest's 201 carries `guest_access_token` (64 characters, " +
      "valid 90 days) for `GET /guest/orders/{id}`. Idempotency-Key (1-128): the same key and body replay the " +
      "first response with `Idempotent-Replayed: true`; another body is 409 `idempotency_conflict`; keys are " +
      "scoped to the caller (user, or the guest's email) and kept 24 hours.",
    security: [{}, ...secured],
    middleware: [optionalAuth(identity)],
    request: {
      headers: z.object({ "idempotency-key": idempotencyKeyHeaderSchema.optional() }),
      ...body(createOrderRequestSchema),
    },
    responses: {
      201: json(successEnvelope(createdOrderSchema), "Created (or replayed)."),
      ...errors(401, 409, 422),
    },
  });

  const guestRead = createRoute({
    method: "get",
    path: "/guest/orders/{id}",
    tags,
    summary: "A guest's order, by its access capability",
    description:
      "Valid only for the order it was issued with, for 90 days. A missing, wrong or expired capability is 404.",
    request: { params: idParamSchema, headers: guestAccessHeaderSchema },
    responses: { 200: json(successEnvelope(orderSchema), "The order."), ...errors(404) },
  });

  const get = createRoute({
    method: "get",
    path: "/orders/{id}",
    tags,
    summary: "An order",
    description: "For its customer, its provider owner and administrators; 404 for anyone else.",
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema },
    responses: { 200: json(successEnvelope(orderSchema), "The order."), ...errors(401, 404) },
  });

  const transitionDescription =
    "Provider owner or administrator: pending→confirmed, confirmed→in_progress, confirmed|in_progress→completed, " +
    "pending|confirmed|in_progress→cancelled. Customer: pending|confirmed→cancelled (other moves 403). " +
    "`completed` and `cancelled` are final; a same-state request is 422 `invalid_transition`. `version` must be " +
    "the order's current one (409 `order_conflict` otherwise, and for the loser of two concurrent requests). " +
    "Completion also records the completed-order snapshot and the primary sale, once.";

  const transition = createRoute({
    method: "post",
    path: "/orders/{id}/transition",
    tags,
    summary: "Move an order to another state",
    description: transitionDescription,
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema, ...body(transitionRequestSchema) },
    responses: { 200: json(successEnvelope(orderSchema), "Updated."), ...errors(401, 403, 404, 409, 422) },
  });

  const adminTransition = createRoute({
    method: "post",
    path: "/admin/orders/{id}/transition",
    tags: ["Administration"],
    summary: "Move an order (administrators)",
    description: transitionDescription,
    security: secured,
    middleware: [auth, requireRoles("admin")],
    request: { params: idParamSchema, ...body(transitionRequestSchema) },
    responses: { 200: json(successEnvelope(orderSchema), "Updated."), ...errors(401, 403, 404, 409, 422) },
  });

  const pay = createRoute({
    method: "post",
    path: "/orders/{id}/payments",
    tags,
    summary: "Start paying for an order (its customer)",
    description:
      "The amount and currency come from the stored order; `instructions` are the configured ones for the " +
      "method. One open payment per order: another is 409 `payment_conflict` (the same Idempotency-Key replays " +
      "instead). An order that is not the caller's, or is cancelled, is 422.",
    security: secured,
    middleware: [auth],
    request: {
      params: idParamSchema,
      headers: z.object({ "idempotency-key": idempotencyKeyHeaderSchema }),
      ...body(createPaymentRequestSchema),
    },
    responses: {
      201: json(successEnvelope(paymentSchema), "Created (or replayed)."),
      ...errors(401, 409, 422),
    },
  });

  const orderResponse = (created: CreatedOrder) => ({
    status: 201,
    body: toOrderDto(created.order),
    secret: created.guestAccessToken,
  });
  const withGuestToken = (order: z.infer<typeof orderSchema>, token: string) => ({
    ...order,
    guest_access_token: token,
  });

  return createRouter()
    .openapi(list, async (c) => {
      const page = parsePage(c.req.valid("query"), { defaultLimit: 20, nonIntegerIs400: false });
      const result = await listOrders(orders, actorOf(c), page);

      return ok(c, result.items.map(toOrderDto), { meta: { ...page, total: result.total } });
    })
    .openapi(create, async (c) => {
      const input = c.req.valid("json");
      const key = c.req.valid("header")["idempotency-key"];
      const actor = c.get("actor");
      let caller: OrderCaller;
      let scope: string;
      if (actor) {
        caller = { actor };
        scope = actor.userId;
      } else {
        const missing = [
          ...(input.email === undefined ? [{ path: "email", message: "is required for a guest order" }] : []),
          ...(input.phone === undefined ? [{ path: "phone", message: "is required for a guest order" }] : []),
          ...(key === undefined
            ? [{ path: "Idempotency-Key", message: "is required for a guest order" }]
            : []),
        ];
        if (missing.length > 0 || input.email === undefined || input.phone === undefined) {
          throw new ValidationError(missing);
        }
        caller = { guest: { email: input.email, phone: input.phone } };
        scope = `guest:${input.email}`;
      }
      const outcome = await createOrder(
        orders,
        caller,
        {
          menuItemId: input.menu_item_id,
          quantity: input.quantity,
          notes: input.notes,
          scheduleAt: input.schedule_at === undefined ? undefined : new Date(input.schedule_at),
        },
        key === undefined
          ? undefined
          : { scope, route: "POST /api/v1/orders", key, fingerprint: fingerprintOf(input) },
        { toResponse: orderResponse, errorResponse: storedRefusal },
      );
      if (outcome.kind === "replay") {
        return replay(c, outcome.response, 201, withGuestToken);
      }
      const { order, guestAccessToken } = outcome.result;
      const dto = toOrderDto(order);

      return ok(c, guestAccessToken ? withGuestToken(dto, guestAccessToken) : dto, { status: 201 });
    })
    .openapi(guestRead, async (c) => {
      const order: Order = await getGuestOrder(
        orders,
        c.req.valid("param").id,
        c.req.valid("header")["x-guest-access-token"],
      );

      return ok(c, toOrderDto(order));
    })
    .openapi(get, async (c) => ok(c, toOrderDto(await getOrder(orders, actorOf(c), c.req.valid("param").id))))
    .openapi(transition, async (c) => {
      const input = c.req.valid("json");
      const order = await transitionOrder(orders, actorOf(c), {
        orderId: c.req.valid("param").id,
        to: input.status,
        version: input.version,
      });

      return ok(c, toOrderDto(order));
    })
    .openapi(adminTransition, async (c) => {
      const input = c.req.valid("json");
      const order = await adminTransitionOrder(orders, actorOf(c), {
        orderId: c.req.valid("param").id,
        to: input.status,
        version: input.version,
      });

      return ok(c, toOrderDto(order));
    })
    .openapi(pay, async (c) => {
      const actor = actorOf(c);
      const orderId = c.req.valid("param").id;
      const input = c.req.valid("json");
      const outcome = await createOrderPayment(
        orders,
        actor,
        { orderId, method: input.method },
        {
          scope: actor.userId,
          route: `POST /api/v1/orders/${orderId}/payments`,
          key: c.req.valid("header")["idempotency-key"],
          fingerprint: fingerprintOf(input),
        },
        {
          toResponse: (payment) => ({ status: 201, body: toPaymentDto(payment, orders.settings) }),
          errorResponse: storedRefusal,
        },
      );
      if (outcome.kind === "replay") {
        return replay(c, outcome.response, 201);
      }

      return ok(c, toPaymentDto(outcome.result, orders.settings), { status: 201 });
    });
};
