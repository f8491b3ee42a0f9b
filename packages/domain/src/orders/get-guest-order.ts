import { NotFoundError } from "../common/app-error";
import { hashGuestToken } from "./guest-access";
import type { OrdersDeps } from "./orders.deps";
import type { Order } from "./orders.types";

/**
 * A guest's read of their one order: the capability must be that order's and unexpired. Missing,
 * wrong or expired capabilities all answer 404.
 */
export const getGuestOrder = async (
  { repos, clock }: Pick<OrdersDeps, "repos" | "clock">,
  orderId: string,
  token: string | undefined,
): Promise<Order> => {
  const order =
    token?.length === 64
      ? await repos.orders.findByGuestToken(orderId, hashGuestToken(token), clock.now())
      : null;
  if (!order) {
    throw new NotFoundError("Order");
  }

  return order;
};
