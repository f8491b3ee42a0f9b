import type { MarketplaceRepositories } from "../marketplace/marketplace.ports";
import type { Clock } from "../shared/clock";
import type { IdGenerator } from "../shared/ids";
import type { SecretBox } from "../shared/secret-box";
import type { UnitOfWork } from "../shared/unit-of-work";
import type { OrderRepositories } from "./orders.ports";
import type { PaymentMethod } from "./orders.types";

export type OrdersRepositories = OrderRepositories & Pick<MarketplaceRepositories, "providers">;

export type OrderSettings = {
  /** The listing subscription plan; undefined = not offered (422 plan_unavailable). */
  listingPlan: { priceAmount: number; currency: string; durationDays: number } | undefined;
  /** Customer instructions per method; a missing one is omitted from the payment. */
  paymentInstructions: Partial<Record<PaymentMethod, string | undefined>>;
};

export type OrdersDeps = {
  uow: UnitOfWork<OrdersRepositories>;
  repos: OrdersRepositories;
  clock: Clock;
  ids: IdGenerator;
  /** Encrypts guest capabilities kept for idempotent replays. */
  secrets: SecretBox;
  settings: OrderSettings;
};

/** CONTRACT.md: idempotency keys are kept at least 24 hours. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

/** The guest capability is valid 90 days. */
export const GUEST_ACCESS_TTL_MS = 90 * 24 * 3600_000;
