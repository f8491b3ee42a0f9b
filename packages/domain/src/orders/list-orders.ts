import type { Actor } from "../common/actor";
import type { Page, PageRequest } from "../common/page";
import type { OrdersDeps } from "./orders.deps";
import type { Order } from "./orders.types";

/** The caller's orders as customer and as provider, newest first. */
export const listOrders = async (
  { repos }: Pick<OrdersDeps, "repos">,
  actor: Actor,
  page: PageRequest,
): Promise<Page<Order>> => {
  const provider = await repos.providers.findByUserId(actor.userId);

  return repos.orders.listByParticipant(actor.userId, provider?.id ?? null, page);
};
