import { idParamSchema, pageQuerySchema } from "@agora/contracts/common";
import { pageMetaSchema, successEnvelope } from "@agora/contracts/envelope";
import {
  createdOrderSchema,
  createOrderHeadersSchema,
  createOrderRequestSchema,
  guestAccessHeaderSchema,
  orderSchema,
  transitionRequestSchema,
} from "@agora/contracts/orders";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { type CreatedOrder, createOrder, type OrderCaller } from "@agora/domain/orders/create-order";
import { getGuestOrder } from "@agora/domain/orders/get-guest-order";
import { getOrder } from "@agora/domain/orders/get-order";
import { listOrders } from "@agora/domain/orders/list-orders";
import type { OrdersDeps } from "@agora/domain/orders/orders.deps";
import type { Order } from "@agora/domain/orders/orders.types";
import type { TransitionInput } from "@agora/domain/orders/transition-order";
import { transitionOrder } from "@agora/domain/orders/transition-order";
import type { Actor } from "@agora/domain/shared/actor";
import { ValidationError } from "@agora/domain/shared/app-error";
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../http/app-env";
import { created, idempotencyRequest } from "../../http/idempotency";
import { actorOf, clientIp, optionalBearer, requireAuth } from "../../http/middleware/auth";
import { body, createRouter, errors, json } from "../../http/openapi";
import { ok } from "../../http/respond";
import { toOrderDto } from "./orders.presenter";

const tags = ["Orders"];
const secured = [{ bearerAuth: [] }];

/** The order state policy, as the member and the administrators' transition routes describe it. */
export const transitionDescription =
  "Provider owner or administrator: pending→confirmed, confirmed→in_progress, confirmed|in_progress→completed, " +
  "pending|confirmed|in_progress→cancelled. Customer: pending|confirmed→cancelled (other moves 403). " +
  "`completed` and `cancelled` are final; a same-state request is 422 `invalid_transition`. `version` must be " +
  "the order's current one (409 `order_conflict` otherwise, and for the loser of two concurrent requests). " +
  "Completion also records the completed-order snapshot and the primary sale, once.";

/** The request and responses shared by both transition routes. */
export const transitionContract = {
  request: { params: idParamSchema, ...body(transitionRequestSchema) },
  responses: {
    200: json(successEnvelope(orderSchema), "Updated."),
    ...errors(
      "unauthorized",
      "forbidden",
      "not_found",
      "order_conflict",
      "validation_failed",
      "invalid_transition",
    ),
  },
};

/** The one transition handler: both routes run it, each with its use case. */
export const transitionHandler =
  (deps: OrdersDeps, useCase: (deps: OrdersDeps, actor: Actor, input: TransitionInput) => Promise<Order>) =>
  async (
    c: Context<
      AppEnv,
      string,
      { out: { param: { id: string }; json: z.infer<typeof transitionRequestSchema> } }
    >,
  ) => {
    const input = c.req.valid("json");
    const order = await useCase(deps, actorOf(c), {
      orderId: c.req.valid("param").id,
      to: input.status,
      version: input.version,
    });

    return ok(c, toOrderDto(order));
  };

export const createOrderRoutes = ({
  identity,
  orders,
  config,
}: {
  identity: IdentityDeps;
  orders: OrdersDeps;
  config: { trustProxy: boolean };
}) => {
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
    request: { query: pageQuerySchema(20) },
    responses: {
      200: json(successEnvelope(z.array(orderSchema), pageMetaSchema), "A page of orders."),
      ...errors("unauthorized", "validation_failed"),
    },
  });

  const create = createRoute({
    method: "post",
    path: "/orders",
    tags,
    summary: "Place an order (member or guest)",
    description:
      "Optional bearer: with a valid token the customer is the caller; without an Authorization header the " +
      "request is a guest's and needs `email`, `phone` and an `Idempotency-Key`; a malformed or expired token, " +
      "or one whose session has ended (signed out, account suspended), is 401, never a guest fallback. The server copies provider, listing, item name, unit price and currency " +
      "from the active menu item of a publicly visible listing (422 `item_unavailable` otherwise) and computes " +
      "the total (422 when it would exceed 2^53-1). A guest's 201 carries `guest_access_token` (64 characters, " +
      "valid 90 days) for `GET /guest/orders/{id}`. Idempotency-Key (1-128): the same key and body replay the " +
      "first outcome (its 201, or its refusal) with `Idempotent-Replayed: true`; another body is 409 " +
      "`idempotency_conflict`; keys are scoped to the caller (user, or the guest's email) and kept 24 hours. " +
      "Guest requests are limited per client address (IPv6 per /64; `RATE_LIMIT_GUEST_ORDERS_PER_IP` per hour) " +
      "and per guest email (`RATE_LIMIT_GUEST_ORDERS_PER_EMAIL` per hour), replays included: past either, 429 " +
      "`rate_limited` with `Retry-After` (members are not limited this way).",
    security: [{}, ...secured],
    middleware: [optionalBearer(identity)],
    request: { headers: createOrderHeadersSchema, ...body(createOrderRequestSchema) },
    responses: {
      201: json(successEnvelope(createdOrderSchema), "Created (or replayed)."),
      ...errors(
        "unauthorized",
        "idempotency_conflict",
        "idempotency_in_progress",
        "validation_failed",
        "item_unavailable",
        "rate_limited",
      ),
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
    responses: { 200: json(successEnvelope(orderSchema), "The order."), ...errors("not_found") },
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
    responses: {
      200: json(successEnvelope(orderSchema), "The order."),
      ...errors("unauthorized", "not_found"),
    },
  });

  const transition = createRoute({
    method: "post",
    path: "/orders/{id}/transition",
    tags,
    summary: "Move an order to another state",
    description: transitionDescription,
    security: secured,
    middleware: [auth],
    ...transitionContract,
  });

  const withGuestToken = (created: CreatedOrder) => {
    const dto = toOrderDto(created.order);

    return created.guestAccessToken ? { ...dto, guest_access_token: created.guestAccessToken } : dto;
  };

  return createRouter()
    .openapi(list, async (c) => {
      const page = c.req.valid("query");
      const result = await listOrders(orders, actorOf(c), page);

      return ok(c, result.items.map(toOrderDto), { meta: { ...page, total: result.total } });
    })
    .openapi(create, async (c) => {
      const input = c.req.valid("json");
      const key = c.req.valid("header")["idempotency-key"];
      const claims = c.get("claims");
      let caller: OrderCaller;
      let scope: string;
      if (claims) {
        caller = { member: claims };
        scope = claims.userId;
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
        caller = {
          guest: { email: input.email, phone: input.phone, clientIp: clientIp(c, config.trustProxy) },
        };
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
        idempotencyRequest(c, scope, key, input),
      );

      return created(c, outcome, withGuestToken);
    })
    .openapi(guestRead, async (c) => {
      const order = await getGuestOrder(
        orders,
        c.req.valid("param").id,
        c.req.valid("header")["x-guest-access-token"],
      );

      return ok(c, toOrderDto(order));
    })
    .openapi(get, async (c) => ok(c, toOrderDto(await getOrder(orders, actorOf(c), c.req.valid("param").id))))
    .openapi(transition, transitionHandler(orders, transitionOrder));
};
