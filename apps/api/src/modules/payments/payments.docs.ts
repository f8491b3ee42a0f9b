import type { paymentsOperations } from "@agora/contracts/payments";
import type { paymentsAdminOperations } from "@agora/contracts/payments.admin";
import type { DescriptionsOf } from "../../http/operations";

/** The payment operations' OpenAPI descriptions, by operationId. */
export const paymentsDescriptions = {
  orderPaymentsCreate:
    "The amount and currency come from the stored order; `instructions` are the configured ones for the " +
    "method. One open payment per order: another is 409 `payment_conflict` (the same Idempotency-Key replays " +
    "instead). An order that is not the caller's, or is cancelled, is 422. Idempotency-Key as for orders: " +
    "the same key and body replay the first outcome with `Idempotent-Replayed: true`, another body is 409 " +
    "`idempotency_conflict`.",
  listingSubscriptionPaymentsCreate:
    "The amount and currency are the configured plan's (LISTING_PLAN_*); without a plan, 422 `plan_unavailable`. " +
    "404 unless the caller owns the listing; 403 when the caller's provider approval was withdrawn (the " +
    "owner's role set to `member`). One open subscription payment per listing (409 `payment_conflict`). " +
    "Idempotency-Key as for orders: same key and body replay, another body is 409 `idempotency_conflict`.",
  paymentsSubmit:
    "unpaid or payment_rejected → payment_submitted, with the current `version`. Sent again with the version it " +
    "was sent with (same payer and method) it answers the current payment; any other stale version, or a " +
    "payment no longer open, is 409 `payment_conflict`. Another user's payment is 404.",
  paymentsEvidenceAttach:
    "A media asset id and/or a note (max 2000), at least one. The asset must be the payer's own, uploaded for " +
    "`payment_evidence` (`POST /api/v1/media/upload`) and not attached elsewhere; its upload is confirmed with " +
    "the object store first (422 when it is not usable, 503 `storage_unavailable` when the store does not " +
    "answer); it is taken at once and processed afterwards: `GET /api/v1/media/{id}` answers it " +
    "`processing`, without a URL, until `ready` (bytes already `rejected` are 422). It stays private, readable by the payment's " +
    "reviewers. Settled payments are 409 `payment_conflict`.",
  paymentsConfirm:
    "Order payments: the owning provider or an administrator (the order's payment status follows; its workflow " +
    "is not advanced). Subscription payments: administrators only; the subscription becomes active and its " +
    "expiry advances by the plan duration from the later of now and the current expiry, and a draft listing of an " +
    "approved provider is published, in the same transaction. Audited. Not awaiting review: 409. A provider " +
    "whose approval was withdrawn (the owner's role set to `member`) confirms nothing: 403.",
  adminPaymentsReject:
    "Audited; the order's payment status follows; the payer may submit again. Not awaiting review: 409.",
} satisfies DescriptionsOf<typeof paymentsOperations & typeof paymentsAdminOperations>;
