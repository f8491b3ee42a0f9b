import type { Actor } from "../common/actor";
import { type IdempotencyRequest, type IdempotentOutcome, runIdempotent } from "../common/idempotency";
import { findOwnedListing } from "../marketplace/ownership";
import { openPayment } from "./open-payment";
import type { PaymentsDeps } from "./payments.deps";
import { PlanUnavailableError } from "./payments.errors";
import type { Payment, PaymentMethod } from "./payments.types";

/**
 * A subscription payment for the caller's own listing at the configured plan's price (404 when
 * the listing is not theirs, 422 plan_unavailable when no plan is offered, 409 when one is open).
 */
export const createSubscriptionPayment = (
  deps: PaymentsDeps,
  actor: Actor,
  input: { listingId: string; method: PaymentMethod },
  idempotency: IdempotencyRequest,
): Promise<IdempotentOutcome<Payment>> =>
  runIdempotent({ ...deps, idempotency: deps.repos.idempotency }, idempotency, async (tx) => {
    const now = deps.clock.now();
    const listing = await findOwnedListing(tx, actor, input.listingId, now);
    const plan = deps.settings.listingPlan;
    if (!plan) {
      throw new PlanUnavailableError();
    }

    return openPayment(tx, deps, now, {
      purpose: "listing_subscription",
      purposeId: listing.id,
      payerId: actor.userId,
      amount: plan.priceAmount,
      currency: plan.currency,
      method: input.method,
      planDurationDays: plan.durationDays,
    });
  });
