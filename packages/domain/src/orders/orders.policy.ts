import type { Actor } from "../common/actor";
import { isAdmin } from "../identity/identity.policy";
import type { Order, OrderStatus, RequestableStatus } from "./orders.types";

/** Provider owner and administrators run the order (the moves the transition route documents). */
const managementMoves: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ["confirmed", "cancelled"],
  confirmed: ["in_progress", "completed", "cancelled"],
  in_progress: ["completed", "cancelled"],
  completed: [],
  cancelled: [],
};

/** The customer may only cancel, and only while pending or confirmed. */
const customerMoves: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ["cancelled"],
  confirmed: ["cancelled"],
  in_progress: [],
  completed: [],
  cancelled: [],
};

export const isOrderCustomer = (actor: Actor, order: Order): boolean => order.customerId === actor.userId;
export const isOrderProvider = (actor: Actor, order: Order): boolean => order.providerUserId === actor.userId;

/** Who may read an order: its customer, its provider owner, administrators. */
export const canSeeOrder = (actor: Actor, order: Order): boolean =>
  isOrderCustomer(actor, order) || isOrderProvider(actor, order) || isAdmin(actor);

export type TransitionDecision = "allowed" | "forbidden" | "invalid";

/**
 * Whether `actor` may move `order` to `to`: forbidden (403) when the caller's part does not include
 * that move at all (a customer can only cancel; staff who only read orders move none), invalid (422) when the move is not open from the
 * current state (same state included), else allowed.
 */
export const decideTransition = (actor: Actor, order: Order, to: RequestableStatus): TransitionDecision => {
  const manages = isOrderProvider(actor, order) || isAdmin(actor);
  if (manages) {
    return managementMoves[order.status].includes(to) ? "allowed" : "invalid";
  }
  // Anyone else who may read the order (an accountant) may not move it; its customer may cancel.
  if (!isOrderCustomer(actor, order) || to !== "cancelled") {
    return "forbidden";
  }

  return customerMoves[order.status].includes(to) ? "allowed" : "invalid";
};
