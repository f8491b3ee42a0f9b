import type { NotificationRequest } from "../delivery/notification-requests";
import { requireRole } from "../identity/identity.policy";
import type { Actor } from "../shared/actor";
import { ForbiddenError } from "../shared/app-error";
import type { OrdersDeps } from "./orders.deps";
import { InvalidTransitionError, OrderConflictError } from "./orders.errors";
import { decideTransition, isOrderCustomer } from "./orders.policy";
import type { Order, RequestableStatus } from "./orders.types";
import { getOrder } from "./read-orders";

const statusWords: Record<RequestableStatus, string> = {
  confirmed: "confirmed",
  in_progress: "in progress",
  completed: "completed",
  cancelled: "cancelled",
};

/** Who hears about a move: the other side of the order. */
const notificationsFor = (actor: Actor, order: Order, kind: string): NotificationRequest[] => {
  const title = `Order ${statusWords[order.status as RequestableStatus] ?? order.status}`;
  const body = `${order.quantity} × ${order.itemName}`;
  const data = { order_id: order.id, status: order.status };
  const recipients = new Set<string>();
  if (order.customerId && order.customerId !== actor.userId) {
    recipients.add(order.customerId);
  }
  if (order.providerUserId !== actor.userId) {
    recipients.add(order.providerUserId);
  }

  return [...recipients].map((userId) => ({ userId, kind, title, body, data }));
};

/**
 * Moves an order per the state policy (CONTRACT.md §4): 404 unless the caller may see it, 403 when
 * the move is not the caller's to make (a customer can only cancel), 409 order_conflict when
 * `version` is not current, 422 invalid_transition when the move is not open from the current
 * state. The version is compared again in the UPDATE itself, so of two concurrent requests with
 * one version exactly one wins. Completion writes, in the same transaction, the completed-order
 * snapshot and the primary sale (each unique per order), the outbox event and the audit event.
 */
export const transitionOrder = async (
  deps: Pick<OrdersDeps, "uow" | "repos" | "clock" | "ids">,
  actor: Actor,
  input: { orderId: string; to: RequestableStatus; version: number },
): Promise<Order> => {
  const order = await getOrder(deps, actor, input.orderId);
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
    const kind = input.to === "completed" ? "order.completed" : "order.status_changed";
    if (input.to === "completed") {
      await tx.orders.recordCompletion(
        updated,
        { snapshotId: deps.ids.next(), saleId: deps.ids.next() },
        now,
      );
    }
    await tx.outbox.append(
      {
        kind,
        aggregateType: "order",
        aggregateId: order.id,
        payload: {
          from: order.status,
          to: updated.status,
          notifications: notificationsFor(actor, updated, kind),
        },
      },
      now,
    );
    await tx.audit.record(
      {
        actor,
        action: "order.transitioned",
        targetType: "order",
        targetId: order.id,
        details: { from: order.status, to: updated.status, version: updated.version },
      },
      now,
    );

    return updated;
  });
};

/** The administrators' route: the same transition, admin role required (403). */
export const adminTransitionOrder = (
  deps: Pick<OrdersDeps, "uow" | "repos" | "clock" | "ids">,
  actor: Actor,
  input: { orderId: string; to: RequestableStatus; version: number },
): Promise<Order> => {
  requireRole(actor, "admin");

  return transitionOrder(deps, actor, input);
};
