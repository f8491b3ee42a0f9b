import { ordersAdminOperations, ordersCollection } from "@agora/contracts/orders.admin";
import { adminListOrders } from "@agora/domain/orders/admin-list-orders";
import { adminTransitionOrder } from "@agora/domain/orders/admin-transition-order";
import type { OrdersDeps } from "@agora/domain/orders/orders.deps";
import { type Handled, handle } from "../../http/operations";
import { type AdminKinds, collectionKind } from "../administration/administration.kinds";
import { toAdminOrderDto } from "./orders.admin.presenter";
import { transitionHandler } from "./orders.routes";

export const orderAdminRoutes = ({ orders }: { orders: OrdersDeps }): Handled[] => [
  handle(ordersAdminOperations.adminOrdersTransition, transitionHandler(orders, adminTransitionOrder), {
    roles: ["admin"],
  }),
];

/** The order kind: administrators see every order, accountants those of their services. */
export const orderAdminKinds = ({ orders }: { orders: OrdersDeps }): AdminKinds => ({
  collections: {
    orders: collectionKind(ordersCollection, async (actor, filter, page) => {
      const found = await adminListOrders(orders, actor, filter, page);

      return { total: found.total, items: found.items.map(toAdminOrderDto) };
    }),
  },
});
