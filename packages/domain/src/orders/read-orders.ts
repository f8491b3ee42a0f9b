import type { Page } from "../marketplace/marketplace.types";
import type { Actor } from "../shared/actor";
import { NotFoundError } from "../shared/app-error";
import { isUuid } from "../shared/ids";
import { hashGuestToken } from "./create-order";
import type { OrdersDeps } from "./orders.deps";
import { canSeeOrder } from "./orders.policy";
import type { Order } from "./orders.types";

const orderNotFound = () => new NotFoundError("Order");

/** An order its customer, its provider owner or an administrator may read; 404 for anyone else. */
export const getOrder = async (
  { repos }: Pick<OrdersDeps, "repos">,
  actor: Actor,
  orderId: string,
): Promise<Order> => {
  const order = isUuid(orderId) ? await repos.orders.findById(orderId) : null;
  if (!order || !canSeeOrder(actor, order)) {
    throw orderNotFound();
  }

  return order;
};

/** The caller's orders as customer and as provider, newest first. */
export const listOrders = async (
  { repos }: Pick<OrdersDeps, "repos">,
  actor: Actor,
  page: { limit: number; offset: number },
): Promise<Page<Order>> => {
  const provider = await repos.providers.findByUserId(actor.userId);

  return repos.orders.listForUser(actor.userId, provider?.id ?? null, page);
};

/**
 * A guest's read of their one order: the capability must be that order's and unexpired. Missing,
 * wrong or expired capabilities all answer 404.
 */
export const getGuestOrder = async (
  { repos, clock }: Pick<OrdersDeps, "repos" | "clock">,
  orderId: string,
  token: string | undefined,
): Promise<Order> => {
  if (token?.length !== 64 || !isUuid(orderId)) {
    throw orderNotFound();
  }
  const order = await repos.orders.findByGuestToken(orderId, hashGuestToken(token), clock.now());
  if (!order) {
    throw orderNotFound();
  }

  return order;
};
