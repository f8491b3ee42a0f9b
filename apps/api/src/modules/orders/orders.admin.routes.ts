import { orderStatusSchema } from "@agora/contracts/orders";
import { adminOrderSchema } from "@agora/contracts/orders.admin";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { adminListOrders } from "@agora/domain/orders/admin-list-orders";
import { adminTransitionOrder } from "@agora/domain/orders/admin-transition-order";
import type { OrdersDeps } from "@agora/domain/orders/orders.deps";
import type { OrderStatus } from "@agora/domain/orders/orders.types";
import { createRoute } from "@hono/zod-openapi";
import { requireAuth, requireRoles } from "../../http/middleware/auth";
import { createRouter } from "../../http/openapi";
import type { CollectionKind } from "../administration/administration.kinds";
import { toAdminOrderDto } from "./orders.admin.presenter";
import { transitionContract, transitionDescription, transitionHandler } from "./orders.routes";

/** Mounted at /api/v1/admin. */
export const createOrderAdminRoutes = ({
  identity,
  orders,
}: {
  identity: IdentityDeps;
  orders: OrdersDeps;
}) => {
  const transition = createRoute({
    method: "post",
    path: "/orders/{id}/transition",
    tags: ["Administration"],
    summary: "Move an order (administrators)",
    description: transitionDescription,
    security: [{ bearerAuth: [] }],
    middleware: [requireAuth(identity), requireRoles("admin")],
    ...transitionContract,
  });

  return createRouter().openapi(transition, transitionHandler(orders, adminTransitionOrder));
};

/** `GET /admin/orders`: administrators see every order, accountants those of their services. */
export const ordersKind = ({ orders }: { orders: OrdersDeps }): CollectionKind<OrderStatus> => ({
  status: orderStatusSchema,
  searches: "a substring of the item name or the guest's email, or the order id",
  item: adminOrderSchema,
  readers: "administrators, and accountants for the orders of the services assigned to them",
  list: async (actor, filter, page) => {
    const found = await adminListOrders(orders, actor, filter, page);

    return { total: found.total, items: found.items.map(toAdminOrderDto) };
  },
});
