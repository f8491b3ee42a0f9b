import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { adminTransitionOrder } from "@agora/domain/orders/admin-transition-order";
import type { OrdersDeps } from "@agora/domain/orders/orders.deps";
import { createRoute } from "@hono/zod-openapi";
import { requireAuth, requireRoles } from "../../http/middleware/auth";
import { createRouter } from "../../http/openapi";
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
