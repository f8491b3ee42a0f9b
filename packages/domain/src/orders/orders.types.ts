export const orderStatuses = ["pending", "confirmed", "in_progress", "completed", "cancelled"] as const;
export type OrderStatus = (typeof orderStatuses)[number];

/** What a transition may ask for. */
export const requestableStatuses = ["confirmed", "in_progress", "completed", "cancelled"] as const;
export type RequestableStatus = (typeof requestableStatuses)[number];

export const paymentStatuses = [
  "unpaid",
  "payment_submitted",
  "payment_confirmed",
  "payment_rejected",
  "refunded",
] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

export const paymentMethods = ["walletone_qr", "wallettwo_qr"] as const;
export type PaymentMethod = (typeof paymentMethods)[number];

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

export type PaymentPurpose = "order" | "listing_subscription";

export type Payment = {
  id: string;
  purpose: PaymentPurpose;
  purposeId: string;
  payerId: string;
  amount: number;
  currency: string;
  status: PaymentStatus;
  method: PaymentMethod;
  version: number;
  planDurationDays: number | null;
  evidenceMediaAssetId: string | null;
  evidenceNote: string | null;
  createdAt: Date;
  updatedAt: Date;
};

/** The menu item an order is being placed for, with what decides whether it may be ordered. */
export type OrderableItem = {
  menuItemId: string;
  listingId: string;
  providerId: string;
  providerUserId: string;
  name: string;
  priceAmount: number;
  currency: string;
};
