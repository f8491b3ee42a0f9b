import type { AuditLog } from "../common/audit";
import type { IdempotencyStore } from "../common/idempotency";
import type { Page, PageRequest } from "../common/page";
import type { MarketplaceRepositories } from "../marketplace/marketplace.transaction";
import type { MediaRepositories } from "../media/media.ports";
import type { OrderRepositories } from "../orders/orders.transaction";
import type { OutboxWriter } from "../outbox/outbox.ports";
import type { Payment, PaymentMethod, PaymentPurpose, PaymentStatus } from "./payments.types";

export type NewPayment = {
  id: string;
  purpose: PaymentPurpose;
  purposeId: string;
  payerId: string;
  amount: number;
  currency: string;
  method: PaymentMethod;
  planDurationDays: number | null;
  createdAt: Date;
};

/** A payment with the people it concerns, for authorization. */
export type PaymentWithParties = Payment & {
  /** The provider owner of the order, or the listing's owner. */
  providerUserId: string;
  orderCustomerId: string | null;
};

export interface PaymentRepository {
  /** Inserts; "open_exists" when the order or listing already has its one open payment. */
  create(payment: NewPayment): Promise<"created" | "open_exists">;
  findById(id: string): Promise<PaymentWithParties | null>;
  /** The `submit` move (payment-moves.ts) when the version matches, version + 1; null otherwise. */
  submit(id: string, expectedVersion: number, method: PaymentMethod, at: Date): Promise<Payment | null>;
  addEvidence(
    id: string,
    evidence: { mediaAssetId: string | null; note: string | null },
    at: Date,
  ): Promise<Payment | null>;
  /**
   * Every payment, newest first. `q` is an id: the payment's, its order's, its listing's or its
   * payer's (exactly); `status` the payment status.
   */
  findPage(
    filter: { q?: string | undefined; status?: PaymentStatus | undefined },
    page: PageRequest,
  ): Promise<Page<Payment>>;
  /** The `confirm` or `reject` move (payment-moves.ts), version + 1; null when it was not open. */
  decide(id: string, move: "confirm" | "reject", decidedBy: string, at: Date): Promise<Payment | null>;
}

export type PaymentRepositories = {
  payments: PaymentRepository;
  idempotency: IdempotencyStore;
  outbox: OutboxWriter;
  audit: AuditLog;
} & Pick<OrderRepositories, "orders"> &
  Pick<MarketplaceRepositories, "listings" | "providers"> &
  MediaRepositories;
