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
