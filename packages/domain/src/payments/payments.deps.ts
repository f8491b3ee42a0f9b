import type { Clock } from "../common/clock";
import type { IdGenerator } from "../common/ids";
import type { SecretBox } from "../common/secret-box";
import type { UnitOfWork } from "../common/unit-of-work";
import type { ObjectStore } from "../media/media.ports";
import type { PaymentRepositories } from "./payments.ports";
import type { PaymentMethod } from "./payments.types";

export type PaymentSettings = {
  /** The listing subscription plan; undefined = not offered (422 plan_unavailable). */
  listingPlan: { priceAmount: number; currency: string; durationDays: number } | undefined;
  /** Customer instructions per method; a missing one is omitted from the payment. */
  paymentInstructions: Partial<Record<PaymentMethod, string | undefined>>;
};

export type PaymentsDeps = {
  uow: UnitOfWork<PaymentRepositories>;
  repos: PaymentRepositories;
  clock: Clock;
  ids: IdGenerator;
  /** Seals secrets of idempotent results (payments have none; the mechanism asks for it). */
  secrets: SecretBox;
  settings: PaymentSettings;
  /** Confirms an evidence upload with the object store before it is attached. */
  objects: ObjectStore;
};
