import type { Actor } from "../common/actor";
import { ForbiddenError } from "../common/app-error";
import { isAdmin } from "../identity/identity.policy";
import { requireProviderStandingOf } from "../marketplace/provider-standing";
import { completionSnapshot, primarySale } from "./completion";
import { orderCompleted } from "./events/order-completed";
import { orderStatusChanged } from "./events/order-status-changed";
import { getOrder } from "./get-order";
import type { OrdersDeps } from "./orders.deps";
import { InvalidTransitionError, OrderConflictError } from "./orders.errors";
import { decideTransition, isOrderCustomer, isOrderProvider } from "./orders.policy";
import type { Order, RequestableStatus } from "./orders.types";

export type TransitionInput = { orderId: string; to: RequestableStatus; version: number };

/**
 * Moves an order per the state policy (orders.policy.ts): 404 unless the caller may see it, 403 when
 * the move is not the caller's to make (a customer can only cancel), 409 order_conflict when
 * `version` is not current, 422 invalid_transition when the move is not open from the current
 * state. A provider whose approval was withdrawn (demoted to member) moves none of its orders
 * (403, provider-standing.ts). The version is compared again in the UPDATE itself, so of two concurrent requests with
 * one version exactly one wins. Completion writes, in the same transaction, the completed-order
 * snapshot and the primary sale (each unique per order), the outbox event and the audit event.
 */
export const transitionOrder = async (
  deps: Pick<OrdersDeps, "uow" | "repos" | "clock" | "ids">,
  actor: Actor,
  input: TransitionInput,
): Promise<Order> => {
  const order = await getOrder(deps, actor, input.orderId);
  if (isOrderProvider(actor, order) && !isAdmin(actor)) {
    await requireProviderStandingOf(deps.repos, actor.userId);
  }
  const decision = decideTransition(actor, order, input.to);
  if (decision === "forbidden") {
    throw new ForbiddenError(
      isOrderCustomer(actor, order)
        ? "A customer can only cancel an order."
        : "Only the provider or an administrator can do this.",
    );
  }
  if (order.version !== input.version) {
    throw new OrderConflictError();
  }
  if (decision === "invalid") {
    throw new InvalidTransitionError(order.status, input.to);
  }
  const now = deps.clock.now();

  return deps.uow.run(async (tx) => {
    const updated = await tx.orders.transition(order.id, order.status, input.version, input.to, now);
    if (!updated) {
      throw new OrderConflictError();
    }
    if (updated.status === "completed") {
      await tx.completedOrders.create(completionSnapshot(updated, deps.ids.next(), now));
      await tx.sales.create(primarySale(updated, deps.ids.next(), now));
    }
    const kind = updated.status === "completed" ? orderCompleted : orderStatusChanged;
    await tx.outbox.append(
      kind.event(order.id, {
        order_id: order.id,
        from: order.status,
        to: updated.status,
        actor_id: actor.userId,
        customer_id: updated.customerId,
        provider_user_id: updated.providerUserId,
        item_name: updated.itemName,
        quantity: updated.quantity,
      }),
      now,
    );
    await tx.audit.record(
      {
        actor,
        action: "order.transitioned",
        targetType: "order",
        targetId: order.id,
        before: { status: order.status, version: order.version },
        after: { status: updated.status, version: updated.version },
      },
      now,
    );

    return updated;
  });
};
