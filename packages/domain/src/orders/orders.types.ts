import type { PaymentStatus } from "../payments/payments.types";

export const orderStatuses = ["pending", "confirmed", "in_progress", "completed", "cancelled"] as const;
export type OrderStatus = (typeof orderStatuses)[number];

/** What a transition may ask for. */
export const requestableStatuses = ["confirmed", "in_progress", "completed", "cancelled"] as const;
export type RequestableStatus = (typeof requestableStatuses)[number];

export type Order = {
  id: string;
  customerId: string | null;
  guestEmail: string | null;
  providerId: string;
  /** The user who owns the provider profile (for authorization and notifications). */
  providerUserId: string;
  listingId: string;
  menuItemId: string;
  itemName: string;
  unitPriceAmount: number;
  quantity: number;
  totalAmount: number;
  currency: string;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  version: number;
  notes: string | null;
  scheduleAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

/**
 * The record of a completed order, frozen at completion for reports: a later change of the order
 * DTO must not change what it means, so its fields are listed here, apart from the presenter.
 */
export type CompletedOrderSnapshot = {
  id: string;
  orderId: string;
  providerId: string;
  completedAt: Date;
  data: {
    id: string;
    customer_id: string | null;
    provider_id: string;
    listing_id: string;
    menu_item_id: string;
    item_name: string;
    unit_price_amount: number;
    quantity: number;
    total_amount: number;
    currency: string;
    version: number;
    completed_at: string;
  };
};
