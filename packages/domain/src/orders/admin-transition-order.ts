import type { Actor } from "../common/actor";
import { requireRole } from "../identity/identity.policy";
import type { OrdersDeps } from "./orders.deps";
import type { Order } from "./orders.types";
import { type TransitionInput, transitionOrder } from "./transition-order";

/** The administrators' route: the same transition, the admin role required (403). */
export const adminTransitionOrder = (
  deps: Pick<OrdersDeps, "uow" | "repos" | "clock" | "ids">,
  actor: Actor,
  input: TransitionInput,
): Promise<Order> => {
  requireRole(actor, "admin");

  return transitionOrder(deps, actor, input);
};
