import { ordersOperations, type transitionRequestSchema } from "@agora/contracts/orders";
import type { Actor } from "@agora/domain/common/actor";
import { ValidationError } from "@agora/domain/common/app-error";
import type { AccessClaims } from "@agora/domain/identity/identity.types";
import { type CreatedOrder, createOrder, type OrderCaller } from "@agora/domain/orders/create-order";
import { getGuestOrder } from "@agora/domain/orders/get-guest-order";
import { getOrder } from "@agora/domain/orders/get-order";
import { stopGuestMail } from "@agora/domain/orders/guest-receipts";
import { listOrders } from "@agora/domain/orders/list-orders";
import type { OrdersDeps } from "@agora/domain/orders/orders.deps";
import type { Order } from "@agora/domain/orders/orders.types";
import type { TransitionInput } from "@agora/domain/orders/transition-order";
import { transitionOrder } from "@agora/domain/orders/transition-order";
import type { Context } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../../http/app-env";
import { created, idempotencyRequest } from "../../http/idempotency";
import { actorOf, clientIp } from "../../http/middleware/auth";
import { type Handled, handle, keyedByUseCase } from "../../http/operations";
import { ok } from "../../http/respond";
import { toOrderDto } from "./orders.presenter";

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

const guestRequired = (path: string) => ({ path, message: "is required for a guest order" });

/**
 * Who places the order: the member of a verified token, else a guest, who must give an email, a
 * phone and an Idempotency-Key (422 naming each one missing). Keys are scoped to the caller.
 */
const orderCaller = (
  claims: AccessClaims | undefined,
  input: { email?: string | undefined; phone?: string | undefined },
  key: string | undefined,
  ip: string,
): { caller: OrderCaller; scope: string } => {
  if (claims) {
    return { caller: { member: claims }, scope: claims.userId };
  }
  const { email, phone } = input;
  if (email === undefined || phone === undefined || key === undefined) {
    throw new ValidationError([
      ...(email === undefined ? [guestRequired("email")] : []),
      ...(phone === undefined ? [guestRequired("phone")] : []),
      ...(key === undefined ? [guestRequired("Idempotency-Key")] : []),
    ]);
  }

  return { caller: { guest: { email, phone, clientIp: ip } }, scope: `guest:${email}` };
};

const withGuestToken = (created: CreatedOrder) => {
  const dto = toOrderDto(created.order);

  return created.guestAccessToken ? { ...dto, guest_access_token: created.guestAccessToken } : dto;
};

export const orderRoutes = ({
  orders,
  config,
}: {
  orders: OrdersDeps;
  config: { trustProxy: boolean };
}): Handled[] => [
  handle(ordersOperations.ordersList, async (c) => {
    const page = c.req.valid("query");
    const result = await listOrders(orders, actorOf(c), page);

    return ok(c, result.items.map(toOrderDto), { meta: { ...page, total: result.total } });
  }),
  // The order, its event and the key's record are one statement (see createOrder).
  handle(
    ordersOperations.ordersCreate,
    async (c) => {
      const input = c.req.valid("json");
      const key = c.req.valid("header")["idempotency-key"];
      const { caller, scope } = orderCaller(c.get("claims"), input, key, clientIp(c, config.trustProxy));
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
    },
    keyedByUseCase,
  ),
  handle(ordersOperations.guestOrdersGet, async (c) => {
    const order = await getGuestOrder(
      orders,
      c.req.valid("param").id,
      c.req.valid("header")["x-guest-access-token"],
    );

    return ok(c, toOrderDto(order));
  }),
  handle(ordersOperations.guestOrdersUnsubscribe, async (c) => {
    const { orderId } = await stopGuestMail(
      { receipts: orders.repos.orders, clock: orders.clock, stopKey: orders.settings.guestMailStopKey },
      c.req.valid("param").id,
      c.req.valid("json").token,
    );

    return ok(c, { order_id: orderId, mail: "stopped" as const });
  }),
  handle(ordersOperations.ordersGet, async (c) =>
    ok(c, toOrderDto(await getOrder(orders, actorOf(c), c.req.valid("param").id))),
  ),
  handle(ordersOperations.ordersTransition, transitionHandler(orders, transitionOrder)),
];
