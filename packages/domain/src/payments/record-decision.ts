import type { Actor } from "../common/actor";
import { activateSubscription } from "../marketplace/activate-subscription";
import { paymentConfirmed } from "./events/payment-confirmed";
import { paymentRejected } from "./events/payment-rejected";
import { paymentMoves, paymentMoveTarget } from "./payment-moves";
import { PaymentConflictError } from "./payments.errors";
import type { PaymentRepositories } from "./payments.ports";
import type { Payment } from "./payments.types";

/**
 * Records a review decision in the caller's transaction: the `confirm` or `reject` move of
 * payment-moves.ts (submitted → confirmed or rejected; 409 from any other status, also when a
 * concurrent decision got there first), the order's payment status follows, a confirmed
 * subscription is extended (and a paid draft of an approved provider published), the decision is
 * audited and the payer told.
 */
export const recordDecision = async (
  tx: PaymentRepositories,
  actor: Actor,
  payment: Payment,
  move: "confirm" | "reject",
  now: Date,
): Promise<Payment> => {
  const verb = move === "confirm" ? "confirmed" : "rejected";
  const to = paymentMoves[move].to;
  // Decided against the status read before the transaction, then again by the compare-and-set.
  const decided =
    paymentMoveTarget(payment.status, move) === null
      ? null
      : await tx.payments.decide(payment.id, move, actor.userId, now);
  if (!decided) {
    throw new PaymentConflictError(`Only a submitted payment can be ${verb}.`);
  }
  let details: Record<string, unknown> = { purpose: decided.purpose, purpose_id: decided.purposeId };
  if (decided.purpose === "order") {
    await tx.orders.setPaymentStatus(decided.purposeId, to, now);
  } else if (move === "confirm") {
    const extended = await activateSubscription(tx, decided.purposeId, decided.planDurationDays ?? 0, now);
    details = { ...details, expires_at: extended.expiresAt.toISOString(), published: extended.published };
  }
  await tx.audit.record(
    {
      actor,
      action: `payment.${verb}`,
      targetType: "payment",
      targetId: decided.id,
      before: { status: "payment_submitted" },
      after: { status: decided.status },
      details,
    },
    now,
  );
  const kind = move === "confirm" ? paymentConfirmed : paymentRejected;
  await tx.outbox.append(
    kind.event(decided.id, {
      payment_id: decided.id,
      purpose: decided.purpose,
      purpose_id: decided.purposeId,
      payer_id: decided.payerId,
      amount: decided.amount,
      currency: decided.currency,
      status: to,
    }),
    now,
  );

  return decided;
};
