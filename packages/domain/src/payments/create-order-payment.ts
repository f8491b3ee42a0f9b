import type { Actor } from "../common/actor";
import { ValidationError } from "../common/app-error";
import { type IdempotencyRequest, type IdempotentOutcome, runIdempotent } from "../common/idempotency";
import { openPayment } from "./open-payment";
import type { PaymentsDeps } from "./payments.deps";
import type { Payment, PaymentMethod } from "./payments.types";

/**
 * A payment for the caller's own order: amount and currency come from the stored order. One open
 * payment per order (409 payment_conflict for a second, or once paid); an order that is not the
 * caller's, or is cancelled, is 422.
 */
export const createOrderPayment = (
  deps: PaymentsDeps,
  actor: Actor,
  input: { orderId: string; method: PaymentMethod },
  idempotency: IdempotencyRequest,
): Promise<IdempotentOutcome<Payment>> =>
  runIdempotent({ ...deps, idempotency: deps.repos.idempotency }, idempotency, async (tx) => {
    const order = await tx.orders.findById(input.orderId);
    if (!order || order.customerId !== actor.userId || order.status === "cancelled") {
      throw new ValidationError(
        [{ path: "id", message: "is not an order of yours that can be paid" }],
        "This order is not available for payment.",
      );
    }
    const now = deps.clock.now();
    const payment = await openPayment(tx, deps, now, {
      purpose: "order",
      purposeId: order.id,
      payerId: actor.userId,
      amount: order.totalAmount,
      currency: order.currency,
      method: input.method,
      planDurationDays: null,
    });
    await tx.orders.setPaymentStatus(order.id, "unpaid", now);

    return payment;
  });
