import { idParamSchema } from "@agora/contracts/common";
import { successEnvelope } from "@agora/contracts/envelope";
import {
  createPaymentHeadersSchema,
  createPaymentRequestSchema,
  paymentEvidenceRequestSchema,
  paymentSchema,
  submitPaymentRequestSchema,
} from "@agora/contracts/payments";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { addPaymentEvidence } from "@agora/domain/payments/add-payment-evidence";
import { confirmPayment } from "@agora/domain/payments/confirm-payment";
import { createOrderPayment } from "@agora/domain/payments/create-order-payment";
import { createSubscriptionPayment } from "@agora/domain/payments/create-subscription-payment";
import type { PaymentsDeps } from "@agora/domain/payments/payments.deps";
import type { Payment } from "@agora/domain/payments/payments.types";
import { submitPayment } from "@agora/domain/payments/submit-payment";
import { createRoute } from "@hono/zod-openapi";
import { created, idempotencyRequest } from "../../http/idempotency";
import { actorOf, requireAuth } from "../../http/middleware/auth";
import { body, createRouter, errors, json } from "../../http/openapi";
import { ok } from "../../http/respond";
import { toPaymentDto } from "./payments.presenter";

const tags = ["Payments"];
const secured = [{ bearerAuth: [] }];

export const createPaymentRoutes = ({
  identity,
  payments,
}: {
  identity: IdentityDeps;
  payments: PaymentsDeps;
}) => {
  const auth = requireAuth(identity);
  const present = (payment: Payment) => toPaymentDto(payment, payments.settings);

  const orderPayment = createRoute({
    method: "post",
    path: "/orders/{id}/payments",
    tags,
    summary: "Start paying for an order (its customer)",
    description:
      "The amount and currency come from the stored order; `instructions` are the configured ones for the " +
      "method. One open payment per order: another is 409 `payment_conflict` (the same Idempotency-Key replays " +
      "instead). An order that is not the caller's, or is cancelled, is 422. Idempotency-Key as for orders: " +
      "the same key and body replay the first outcome with `Idempotent-Replayed: true`, another body is 409 " +
      "`idempotency_conflict`.",
    security: secured,
    middleware: [auth],
    request: {
      params: idParamSchema,
      headers: createPaymentHeadersSchema,
      ...body(createPaymentRequestSchema),
    },
    responses: {
      201: json(successEnvelope(paymentSchema), "Created (or replayed)."),
      ...errors(
        "unauthorized",
        "not_found",
        "payment_conflict",
        "idempotency_conflict",
        "idempotency_in_progress",
        "validation_failed",
      ),
    },
  });

  const subscription = createRoute({
    method: "post",
    path: "/listings/{id}/subscription-payments",
    tags,
    summary: "Start paying a listing's subscription (its owner)",
    description:
      "The amount and currency are the configured plan's (LISTING_PLAN_*); without a plan, 422 `plan_unavailable`. " +
      "404 unless the caller owns the listing. One open subscription payment per listing (409 `payment_conflict`). " +
      "Idempotency-Key as for orders: same key and body replay, another body is 409 `idempotency_conflict`.",
    security: secured,
    middleware: [auth],
    request: {
      params: idParamSchema,
      headers: createPaymentHeadersSchema,
      ...body(createPaymentRequestSchema),
    },
    responses: {
      201: json(successEnvelope(paymentSchema), "Created (or replayed)."),
      ...errors(
        "unauthorized",
        "not_found",
        "payment_conflict",
        "idempotency_conflict",
        "idempotency_in_progress",
        "validation_failed",
        "plan_unavailable",
      ),
    },
  });

  const submit = createRoute({
    method: "post",
    path: "/payments/{id}/submit",
    tags,
    summary: "Claim the transfer was made (the payer)",
    description:
      "unpaid or payment_rejected → payment_submitted, with the current `version`. Sent again with the version it " +
      "was sent with (same payer and method) it answers the current payment; any other stale version, or a " +
      "payment no longer open, is 409 `payment_conflict`. Another user's payment is 404.",
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema, ...body(submitPaymentRequestSchema) },
    responses: {
      200: json(successEnvelope(paymentSchema), "Submitted."),
      ...errors("unauthorized", "not_found", "payment_conflict", "validation_failed"),
    },
  });

  const evidence = createRoute({
    method: "post",
    path: "/payments/{id}/evidence",
    tags,
    summary: "Attach evidence of the transfer (the payer)",
    description:
      "A media asset id and/or a note (max 2000), at least one. The asset must be the payer's own, uploaded for " +
      "`payment_evidence` (`POST /api/v1/media/upload`) and not attached elsewhere; its upload is confirmed with " +
      "the object store first (422 when it is not usable, 503 `storage_unavailable` when the store does not " +
      "answer). It stays private, readable by the payment's reviewers. Settled payments are 409.",
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema, ...body(paymentEvidenceRequestSchema) },
    responses: {
      200: json(successEnvelope(paymentSchema), "Stored."),
      ...errors("unauthorized", "not_found", "payment_conflict", "validation_failed", "storage_unavailable"),
    },
  });

  const confirm = createRoute({
    method: "post",
    path: "/payments/{id}/confirm",
    tags,
    summary: "Confirm a submitted payment",
    description:
      "Order payments: the owning provider or an administrator (the order's payment status follows; its workflow " +
      "is not advanced). Subscription payments: administrators only; the subscription becomes active and its " +
      "expiry advances by the plan duration from the later of now and the current expiry, and a draft listing of an " +
      "approved provider is published, in the same transaction. Audited. Not awaiting review: 409.",
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema },
    responses: {
      200: json(successEnvelope(paymentSchema), "Confirmed."),
      ...errors("unauthorized", "forbidden", "not_found", "payment_conflict"),
    },
  });

  return createRouter()
    .openapi(orderPayment, async (c) => {
      const actor = actorOf(c);
      const input = c.req.valid("json");
      const outcome = await createOrderPayment(
        payments,
        actor,
        { orderId: c.req.valid("param").id, method: input.method },
        idempotencyRequest(c, actor.userId, c.req.valid("header")["idempotency-key"], input),
      );

      return created(c, outcome, present);
    })
    .openapi(subscription, async (c) => {
      const actor = actorOf(c);
      const input = c.req.valid("json");
      const outcome = await createSubscriptionPayment(
        payments,
        actor,
        { listingId: c.req.valid("param").id, method: input.method },
        idempotencyRequest(c, actor.userId, c.req.valid("header")["idempotency-key"], input),
      );

      return created(c, outcome, present);
    })
    .openapi(submit, async (c) => {
      const input = c.req.valid("json");
      const payment = await submitPayment(payments, actorOf(c), {
        paymentId: c.req.valid("param").id,
        method: input.method,
        version: input.version,
      });

      return ok(c, present(payment));
    })
    .openapi(evidence, async (c) => {
      const input = c.req.valid("json");
      const payment = await addPaymentEvidence(payments, actorOf(c), {
        paymentId: c.req.valid("param").id,
        mediaAssetId: input.media_asset_id,
        note: input.note,
      });

      return ok(c, present(payment));
    })
    .openapi(confirm, async (c) =>
      ok(c, present(await confirmPayment(payments, actorOf(c), c.req.valid("param").id))),
    );
};
