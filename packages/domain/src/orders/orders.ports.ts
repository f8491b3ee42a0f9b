import type { OutboxWriter } from "../delivery/delivery.ports";
import type { Page } from "../marketplace/marketplace.types";
import type { AuditLog } from "../shared/audit";
import type {
  Order,
  OrderableItem,
  OrderStatus,
  Payment,
  PaymentMethod,
  PaymentPurpose,
  PaymentStatus,
} from "./orders.types";

export type NewOrder = Omit<Order, "providerUserId" | "status" | "paymentStatus" | "version"> & {
  guestPhone: string | null;
  guestTokenHash: string | null;
  guestTokenExpiresAt: Date | null;
};

export interface OrderRepository {
  /** An active, undeleted menu item of a listing that is publicly visible at `now`; else null. */
  findOrderableItem(menuItemId: string, now: Date): Promise<OrderableItem | null>;
  create(order: NewOrder): Promise<void>;
  findById(id: string): Promise<Order | null>;
  /** The order whose guest capability hashes to `tokenHash` and is unexpired at `now`. */
  findByGuestToken(id: string, tokenHash: string, now: Date): Promise<Order | null>;
  /** Orders where the user is the customer, or the provider (by profile id), newest first. */
  listForUser(
    userId: string,
    providerId: string | null,
    page: { limit: number; offset: number },
  ): Promise<Page<Order>>;
  /**
   * Compare-and-set in the UPDATE itself: moves `from` → `to` only while the version is still
   * `expectedVersion`, advancing it by one; null when it was not (a concurrent change won).
   */
  transition(
    id: string,
    from: OrderStatus,
    expectedVersion: number,
    to: OrderStatus,
    at: Date,
  ): Promise<Order | null>;
  /** Mirrors the latest payment's status on the order (the order's own workflow is untouched). */
  setPaymentStatus(id: string, status: PaymentStatus, at: Date): Promise<void>;
  /** The completion snapshot and the primary sale; unique per order, so a second is refused. */
  recordCompletion(order: Order, ids: { snapshotId: string; saleId: string }, at: Date): Promise<void>;
}

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
  /** unpaid | payment_rejected → payment_submitted when the version matches; null otherwise. */
  submit(id: string, expectedVersion: number, method: PaymentMethod, at: Date): Promise<Payment | null>;
  addEvidence(
    id: string,
    evidence: { mediaAssetId: string | null; note: string | null },
    at: Date,
  ): Promise<Payment | null>;
  /** payment_submitted → `to`, version + 1; null when it was not awaiting review. */
  decide(
    id: string,
    to: "payment_confirmed" | "payment_rejected",
    decidedBy: string,
    at: Date,
  ): Promise<Payment | null>;
}

export interface SubscriptionRepository {
  /**
   * Activates the listing's subscription: the expiry moves `days` forward from the later of `now`
   * and the current expiry. A draft listing of an approved provider is published. Returns the new
   * expiry and whether it was published.
   */
  extend(listingId: string, days: number, now: Date): Promise<{ expiresAt: Date; published: boolean }>;
  /** The owner's user id of a listing (any status), or null. */
  ownerOf(listingId: string): Promise<{ providerId: string; userId: string } | null>;
}

/** A stored first response of an Idempotency-Key. */
export type StoredResponse = { status: number; body: unknown; secret?: string | undefined };

export type IdempotencyRecord = {
  scope: string;
  route: string;
  key: string;
  fingerprint: string;
  response: StoredResponse;
  createdAt: Date;
  expiresAt: Date;
};

export interface IdempotencyStore {
  /** The live record (unexpired at `now`), or null. */
  find(scope: string, route: string, key: string, now: Date): Promise<IdempotencyRecord | null>;
  /**
   * Inserts the record (an expired one with the same key is replaced). In a transaction that also
   * holds the effect: a concurrent insert of the same key waits for it and then sees it, so false
   * means another request already recorded this key (and the effect here must roll back).
   */
  save(record: IdempotencyRecord, now: Date): Promise<boolean>;
}

export type OrderRepositories = {
  orders: OrderRepository;
  payments: PaymentRepository;
  subscriptions: SubscriptionRepository;
  idempotency: IdempotencyStore;
  outbox: OutboxWriter;
  audit: AuditLog;
};
