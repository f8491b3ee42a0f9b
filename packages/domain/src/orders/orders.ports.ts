import type { IdempotencyRecord } from "../common/idempotency";
import type { Page, PageRequest } from "../common/page";
import type { NewOutboxEvent } from "../outbox/outbox.types";
import type { PaymentStatus } from "../payments/payments.types";
import type { CompletedOrderSnapshot, Order, OrderStatus } from "./orders.types";

export type NewOrder = Omit<Order, "providerUserId" | "status" | "paymentStatus" | "version"> & {
  guestPhone: string | null;
  guestTokenHash: string | null;
  guestTokenExpiresAt: Date | null;
  /** The guest capability, sealed, for the receipt mails' links (null for a member's order). */
  guestTokenSealed: string | null;
};

/** What a guest order's receipt mail is rendered from, at delivery. */
export type GuestReceiptSource = {
  order: Order;
  email: string;
  sealedToken: string;
  mailStoppedAt: Date | null;
};

/** The guest orders' side of the receipt mails. */
export interface GuestReceiptRepository {
  /** A guest order with its sealed capability, or null (a member's order, or one placed before receipts). */
  findGuestReceipt(id: string): Promise<GuestReceiptSource | null>;
  /** Stops the order's mails (the first time only counts); false when it is no guest order. */
  stopGuestMail(id: string, at: Date): Promise<boolean>;
}

export interface OrderRepository {
  /**
   * Writes the order, its event and (when given) the idempotency record in one atomic statement
   * (the event's and record's times are the order's `createdAt`), if what the order was decided
   * from still holds at that time: its menu item orderable (menuItemOrderable) with the name,
   * price and currency it copies, and (for a member) the session `session.id` the customer's and
   * live (sessionLive, with the absolute lifetime `session.maxAgeSeconds`). Resolves "placed";
   * "stale", having written nothing, when that no longer holds; "key_taken", having written
   * nothing, when a live record with the key refused the insert (see IdempotencyStore.save).
   */
  place(
    order: NewOrder,
    event: NewOutboxEvent & { id: string },
    record: IdempotencyRecord | undefined,
    session: { id: string; maxAgeSeconds: number } | null,
  ): Promise<"placed" | "stale" | "key_taken">;
  findById(id: string): Promise<Order | null>;
  /** The order whose guest capability hashes to `tokenHash` and is unexpired at `now`. */
  findByGuestToken(id: string, tokenHash: string, now: Date): Promise<Order | null>;
  findGuestReceipt: GuestReceiptRepository["findGuestReceipt"];
  stopGuestMail: GuestReceiptRepository["stopGuestMail"];
  /** Orders where the user is the customer, or the provider (by profile id), newest first. */
  listByParticipant(userId: string, providerId: string | null, page: PageRequest): Promise<Page<Order>>;
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
  /**
   * Every order, newest first. `q` matches a substring of the item name or the guest's email, or
   * the order id exactly; `status` the order status; `serviceIds` limits to orders of listings in
   * those services.
   */
  findPage(
    filter: {
      q?: string | undefined;
      status?: OrderStatus | undefined;
      serviceIds?: readonly string[] | undefined;
    },
    page: PageRequest,
  ): Promise<Page<Order>>;
  /** Mirrors the latest payment's status on the order (the order's own workflow is untouched). */
  setPaymentStatus(id: string, status: PaymentStatus, at: Date): Promise<void>;
  /** Clears the free-text notes of the customer's orders (account deletion); the rest stays. */
  clearCustomerNotes(customerId: string, at: Date): Promise<void>;
}

export interface CompletedOrderRepository {
  /** Inserts the snapshot; false when the order already has one (one per order). */
  create(snapshot: CompletedOrderSnapshot): Promise<boolean>;
}
