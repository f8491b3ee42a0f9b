import type { OrdersDeps } from "@agora/domain/orders/orders.deps";
import type { Area } from "../area";
import { orderAdminKinds, orderAdminRoutes } from "./orders.admin.routes";
import { ordersDescriptions } from "./orders.docs";
import { orderRoutes } from "./orders.routes";

/** Orders, members' and guests', and the administrators' order moves. */
export const ordersArea: Area<{ orders: OrdersDeps; config: { trustProxy: boolean } }> = {
  routes: (deps) => [...orderRoutes(deps), ...orderAdminRoutes(deps)],
  adminKinds: orderAdminKinds,
  descriptions: ordersDescriptions,
};
