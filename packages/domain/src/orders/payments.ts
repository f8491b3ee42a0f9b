import type { NotificationRequest } from "../delivery/notification-requests";
import { isAdmin, requireRole } from "../identity/identity.policy";
import type { Actor } from "../shared/actor";
import { ForbiddenError, NotFoundError, ValidationError } from "../shared/app-error";
import { isUuid } from "../shared/ids";
import { type IdempotencyRequest, type IdempotentOutcome, runIdempotent } from "./idempotency";
import type { OrdersDeps, OrdersRepositories } from "./orders.deps";
import { PaymentConflictError, PlanUnavailableError } from "./orders.errors";
import type { NewPayment, PaymentWithParties, StoredResponse } from "./orders.ports";
import type { Payment, PaymentMethod } from "./orders.types";

type Responders = {
  toResponse: (payment: Payment) => StoredResponse;
  errorResponse: (error: unknown) => StoredResponse | undefined;
};

const paymentNotFound = () => new NotFoundError("Payment");

/** Inserts a new unpaid payment; 409 payment_conflict when its order or listing already has one open. */
const openPayment = async (
  tx: OrdersRepositories,
  { ids }: Pick<OrdersDeps, "ids">,
  now: Date,
  fields: Omit<NewPayment, "id" | "createdAt">,
): Promise<Payment> => {
  const payment: Payment = {
    ...fields,
    id: ids.next(),
    status: "unpaid",
    version: 1,
    evidenceMediaAssetId: null,
    evidenceNote: null,
    createdAt: now,
    updatedAt: now,
  };
  if ((await tx.payments.create(payment)) === "open_exists") {
    throw new PaymentConflictError(
      payment.purpose === "order"
        ? "This order already has a payment."
        : "This listing already has an open subscription payment.",
    );
  }

  return payment;
};

/**
 * A payment for the caller's own order: amount and currency come from the stored order. One open
 * payment per order (409 payment_conflict for a second, or once paid); an order that is not the
 * caller's, or is cancelled, is 422.
 */
export const createOrderPayment = (
  deps: OrdersDeps,
  actor: Actor,
  input: { orderId: string; method: PaymentMethod },
  idempotency: IdempotencyRequest,
  responders: Responders,
): Promise<IdempotentOutcome<Payment>> =>
  runIdempotent(
    deps,
    idempotency,
    async (tx) => {
      const order = isUuid(input.orderId) ? await tx.orders.findById(input.orderId) : null;
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
    },
    responders,
  );

/**
 * A subscription payment for the caller's own listing at the configured plan's price (404 when
 * the listing is not theirs, 422 plan_unavailable when no plan is offered, 409 when one is open).
 */
export const createSubscriptionPayment = (
  deps: OrdersDeps,
  actor: Actor,
  input: { listingId: string; method: PaymentMethod },
  idempotency: IdempotencyRequest,
  responders: Responders,
): Promise<IdempotentOutcome<Payment>> =>
  runIdempotent(
    deps,
    idempotency,
    async (tx) => {
      const owner = isUuid(input.listingId) ? await tx.subscriptions.ownerOf(input.listingId) : null;
      if (!owner || owner.userId !== actor.userId) {
        throw new NotFoundError("Listing");
      }
      const plan = deps.settings.listingPlan;
      if (!plan) {
        throw new PlanUnavailableError();
      }
      return openPayment(tx, deps, deps.clock.now(), {
        purpose: "listing_subscription",
        purposeId: input.listingId,
        payerId: actor.userId,
        amount: plan.priceAmount,
        currency: plan.currency,
        method: input.method,
        planDurationDays: plan.durationDays,
      });
    },
    responders,
  );

const ownPayment = async (repos: OrdersRepositories, actor: Actor, paymentId: string) => {
  const payment = isUuid(paymentId) ? await repos.payments.findById(paymentId) : null;
  if (!payment || payment.payerId !== actor.userId) {
    throw paymentNotFound();
  }

  return payment;
};

const payerNotice = (payment: Payment, title: string): NotificationRequest[] => [
  {
    userId: payment.payerId,
    kind: `payment.${payment.status}`,
    title,
    body: `${payment.amount} ${payment.currency}`,
    data: { payment_id: payment.id, purpose: payment.purpose, purpose_id: payment.purposeId },
  },
];

/**
 * The payer claims the transfer was made (a claim, not proof): unpaid or rejected → submitted when
 * `version` is current. Sent again with the version it was sent with, by the payer with the same
 * method, it answers the current payment (a retry after a lost response); any other stale version,
 * or a payment no longer open, is 409 payment_conflict.
 */
export const submitPayment = async (
  deps: Pick<OrdersDeps, "uow" | "repos" | "clock">,
  actor: Actor,
  input: { paymentId: string; method: PaymentMethod; version: number },
): Promise<Payment> => {
  const payment = await ownPayment(deps.repos, actor, input.paymentId);
  if (
    payment.status === "payment_submitted" &&
    payment.version === input.version + 1 &&
    payment.method === input.method
  ) {
    return payment;
  }
  if (payment.version !== input.version || !["unpaid", "payment_rejected"].includes(payment.status)) {
    throw new PaymentConflictError();
  }
  const now = deps.clock.now();

  return deps.uow.run(async (tx) => {
    const submitted = await tx.payments.submit(payment.id, input.version, input.method, now);
    if (!submitted) {
      throw new PaymentConflictError();
    }
    if (submitted.purpose === "order") {
      await tx.orders.setPaymentStatus(submitted.purposeId, "payment_submitted", now);
    }
    await tx.outbox.append(
      {
        kind: "payment.submitted",
        aggregateType: "payment",
        aggregateId: submitted.id,
        payload:
          submitted.purpose === "order"
            ? {
                notifications: [
                  {
                    userId: payment.providerUserId,
                    kind: "payment.submitted",
                    title: "Payment to review",
                    body: `${submitted.amount} ${submitted.currency}`,
                    data: { payment_id: submitted.id, order_id: submitted.purposeId },
                  },
                ],
              }
            : {},
      },
      now,
    );

    return submitted;
  });
};

/** Stores the payer's evidence (an uploaded media asset and/or a note) on an open payment. */
export const addPaymentEvidence = async (
  deps: Pick<OrdersDeps, "repos" | "clock">,
  actor: Actor,
  input: { paymentId: string; mediaAssetId: string | undefined; note: string | undefined },
): Promise<Payment> => {
  const payment = await ownPayment(deps.repos, actor, input.paymentId);
  if (payment.status === "payment_confirmed" || payment.status === "refunded") {
    throw new PaymentConflictError("This payment is settled; evidence can no longer be added.");
  }
  const updated = await deps.repos.payments.addEvidence(
    payment.id,
    { mediaAssetId: input.mediaAssetId ?? null, note: input.note ?? null },
    deps.clock.now(),
  );
  if (!updated) {
    throw paymentNotFound();
  }

  return updated;
};

const canSeePayment = (actor: Actor, payment: PaymentWithParties) =>
  isAdmin(actor) || payment.payerId === actor.userId || payment.providerUserId === actor.userId;

/**
 * Records a review decision in the caller's transaction: submitted → `to` (409 otherwise), the
 * order's payment status follows, a confirmed subscription is extended (and a paid draft of an
 * approved provider published), the decision is audited and the payer told.
 */
const recordDecision = async (
  tx: OrdersRepositories,
  actor: Actor,
  paymentId: string,
  to: "payment_confirmed" | "payment_rejected",
  now: Date,
): Promise<Payment> => {
  const verb = to === "payment_confirmed" ? "confirmed" : "rejected";
  const decided = await tx.payments.decide(paymentId, to, actor.userId, now);
  if (!decided) {
    throw new PaymentConflictError(`Only a submitted payment can be ${verb}.`);
  }
  let details: Record<string, unknown> = { purpose: decided.purpose, purpose_id: decided.purposeId };
  if (decided.purpose === "order") {
    await tx.orders.setPaymentStatus(decided.purposeId, to, now);
  } else if (to === "payment_confirmed") {
    const extended = await tx.subscriptions.extend(decided.purposeId, decided.planDurationDays ?? 0, now);
    details = { ...details, expires_at: extended.expiresAt.toISOString(), published: extended.published };
  }
  await tx.audit.record(
    { actor, action: `payment.${verb}`, targetType: "payment", targetId: decided.id, details },
    now,
  );
  await tx.outbox.append(
    {
      kind: `payment.${verb}`,
      aggregateType: "payment",
      aggregateId: decided.id,
      payload: { notifications: payerNotice(decided, `Payment ${verb}`) },
    },
    now,
  );

  return decided;
};

/**
 * Confirms a submitted payment. Order payments: the owning provider or an administrator; the
 * order's payment status follows, its workflow is untouched. Subscription payments: administrators
 * only; the subscription becomes active and its expiry advances by the plan duration from the
 * later of now and the current expiry, and a draft listing of an approved provider is published —
 * all in one transaction, audited. Not awaiting review: 409 payment_conflict.
 */
export const confirmPayment = async (
  deps: Pick<OrdersDeps, "uow" | "repos" | "clock">,
  actor: Actor,
  paymentId: string,
): Promise<Payment> => {
  const payment = isUuid(paymentId) ? await deps.repos.payments.findById(paymentId) : null;
  if (!payment || !canSeePayment(actor, payment)) {
    throw paymentNotFound();
  }
  const allowed = isAdmin(actor) || (payment.purpose === "order" && payment.providerUserId === actor.userId);
  if (!allowed) {
    throw new ForbiddenError(
      payment.purpose === "order"
        ? "Only the provider or an administrator can confirm this payment."
        : "Only an administrator can confirm a subscription payment.",
    );
  }
  const now = deps.clock.now();

  return deps.uow.run((tx) => recordDecision(tx, actor, payment.id, "payment_confirmed", now));
};

/** Administrators reject a submitted payment (409 when not awaiting review), audited; the order follows. */
export const rejectPayment = async (
  deps: Pick<OrdersDeps, "uow" | "repos" | "clock">,
  actor: Actor,
  paymentId: string,
): Promise<Payment> => {
  requireRole(actor, "admin");
  const payment = isUuid(paymentId) ? await deps.repos.payments.findById(paymentId) : null;
  if (!payment) {
    throw paymentNotFound();
  }
  const now = deps.clock.now();

  return deps.uow.run((tx) => recordDecision(tx, actor, payment.id, "payment_rejected", now));
};
