import type { CollectionFilter } from "../administration/administration.types";
import type { Actor } from "../common/actor";
import type { Page, PageRequest } from "../common/page";
import { requireRole } from "../identity/identity.policy";
import type { OrdersDeps } from "./orders.deps";
import type { Order, OrderStatus } from "./orders.types";

/**
 * Every order, newest first, for administrators; for an accountant, only the orders of the
 * services assigned to them (none assigned: none). Anyone else: 403.
 */
export const adminListOrders = async (
  { repos }: Pick<OrdersDeps, "repos">,
  actor: Actor,
  filter: CollectionFilter<OrderStatus>,
  page: PageRequest,
): Promise<Page<Order>> => {
  requireRole(actor, "admin", "accountant");
  const serviceIds =
    actor.role === "accountant"
      ? ((await repos.accountantServices.findServiceIdsByAccountants([actor.userId])).get(actor.userId) ?? [])
      : undefined;

  return repos.orders.findPage({ ...filter, serviceIds }, page);
};
