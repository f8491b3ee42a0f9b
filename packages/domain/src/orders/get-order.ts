import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import type { OrdersDeps } from "./orders.deps";
import { canSeeOrder } from "./orders.policy";
import type { Order } from "./orders.types";

/**
 * An order its customer, its provider owner or an administrator may read, and an accountant when
 * it belongs to a service assigned to them (the authorized staff); 404 for anyone else.
 */
export const getOrder = async (
  { repos }: Pick<OrdersDeps, "repos">,
  actor: Actor,
  orderId: string,
): Promise<Order> => {
  const order = await repos.orders.findById(orderId);
  const visible =
    order !== null &&
    (canSeeOrder(actor, order) ||
      (actor.role === "accountant" &&
        (await repos.accountantServices.coversListing(actor.userId, order.listingId))));
  if (!order || !visible) {
    throw new NotFoundError("Order");
  }

  return order;
};
