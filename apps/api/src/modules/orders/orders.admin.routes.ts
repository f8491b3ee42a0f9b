import { orderStatusSchema } from "@agora/contracts/orders";
import { adminOrderSchema, ordersAdminOperations } from "@agora/contracts/orders.admin";
import { adminListOrders } from "@agora/domain/orders/admin-list-orders";
import { adminTransitionOrder } from "@agora/domain/orders/admin-transition-order";
import type { OrdersDeps } from "@agora/domain/orders/orders.deps";
import type { OrderStatus } from "@agora/domain/orders/orders.types";
import { type Handled, handle } from "../../http/operations";
import type { CollectionKind } from "../administration/administration.kinds";
import { toAdminOrderDto } from "./orders.admin.presenter";
import { transitionHandler } from "./orders.routes";

export const orderAdminRoutes = ({ orders }: { orders: OrdersDeps }): Handled[] => [
  handle(ordersAdminOperations.adminOrdersTransition, transitionHandler(orders, adminTransitionOrder), {
    roles: ["admin"],
  }),
];

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
