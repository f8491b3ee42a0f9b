import type { ordersOperations } from "@agora/contracts/orders";
import type { ordersAdminOperations } from "@agora/contracts/orders.admin";
import type { DescriptionsOf } from "../../http/operations";

/** The order state policy, as the member and the administrators' transition routes describe it. */
const transitionDescription =
  "Provider owner or administrator: pending→confirmed, confirmed→in_progress, confirmed|in_progress→completed, " +
  "pending|confirmed|in_progress→cancelled. Customer: pending|confirmed→cancelled (other moves 403). " +
  "`completed` and `cancelled` are final; a same-state request is 422 `invalid_transition`. `version` must be " +
  "the order's current one (409 `order_conflict` otherwise, and for the loser of two concurrent requests). " +
  "Completion also records the completed-order snapshot and the primary sale, once. A provider whose approval " +
  "was withdrawn (the owner's role set to `member`) moves none of its orders: 403.";

/** The order operations' OpenAPI descriptions, by operationId. */
export const ordersDescriptions = {
  ordersList:
    "Newest first; `meta` carries `{ limit, offset, total }`. limit 1-100 (default 20), offset 0 or more; anything else is 422.",
  ordersCreate:
    "Optional bearer: with a valid token the customer is the caller; without an Authorization header the " +
    "request is a guest's and needs `email`, `phone` and an `Idempotency-Key`; a malformed or expired token, " +
    "or one whose session has ended (signed out, account suspended), is 401, never a guest fallback. The server copies provider, listing, item name, unit price and currency " +
    "from the active menu item of a publicly visible listing (422 `item_unavailable` otherwise) and computes " +
    "the total (422 when it would exceed 2^53-1). A guest's 201 carries `guest_access_token` (64 characters, " +
    "valid 90 days) for `GET /guest/orders/{id}`. Idempotency-Key (1-128): the same key and body replay the " +
    "first outcome (its 201, or its refusal) with `Idempotent-Replayed: true`; another body is 409 " +
    "`idempotency_conflict`; keys are scoped to the caller (user, or the guest's email) and kept 24 hours. " +
    "Guest requests are limited per client address (IPv6 per /64; `RATE_LIMIT_GUEST_ORDERS_PER_IP` per hour) " +
    "and per guest email (`RATE_LIMIT_GUEST_ORDERS_PER_EMAIL` per hour), replays included: past either, 429 " +
    "`rate_limited` with `Retry-After` (members are not limited this way).",
  guestOrdersGet:
    "Valid only for the order it was issued with, for 90 days. A missing, wrong or expired capability is 404.",
  guestOrdersUnsubscribe:
    "No account needed: the token comes from the unsubscribe link of the order's receipt mail (in its " +
    "fragment, so it never reaches a server log; the page the link opens sends it here). After it no " +
    "receipt or update is mailed for this order. Idempotent: the same request answers 200 again. A wrong " +
    "token, or an order that is not a guest's, is 404. The guest's access capability is unchanged.",
  ordersGet: "For its customer, its provider owner and administrators; 404 for anyone else.",
  ordersTransition: transitionDescription,
  adminOrdersTransition: transitionDescription,
} satisfies DescriptionsOf<typeof ordersOperations & typeof ordersAdminOperations>;
