import { idParamSchema } from "@agora/contracts/common";
import { successEnvelope } from "@agora/contracts/envelope";
import {
  createPaymentRequestSchema,
  idempotencyKeyHeaderSchema,
  paymentEvidenceRequestSchema,
  paymentSchema,
  submitPaymentRequestSchema,
} from "@agora/contracts/orders";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { fingerprintOf } from "@agora/domain/orders/idempotency";
import type { OrdersDeps } from "@agora/domain/orders/orders.deps";
import {
  addPaymentEvidence,
  confirmPayment,
  createSubscriptionPayment,
  rejectPayment,
  submitPayment,
} from "@agora/domain/orders/payments";
import { createRoute, z } from "@hono/zod-openapi";
import { replay, storedRefusal } from "../../http/idempotency";
import { actorOf, requireAuth, requireRoles } from "../../http/middleware/auth";
import { body, createRouter, errors, json } from "../../http/openapi";
import { ok } from "../../http/respond";
import { toPaymentDto } from "./orders.presenter";

const tags = ["Orders and payments"];
const secured = [{ bearerAuth: [] }];

export const createPaymentRoutes = ({ identity, orders }: { identity: IdentityDeps; orders: OrdersDeps }) => {
  const auth = requireAuth(identity);
  const present = (payment: Parameters<typeof toPaymentDto>[0]) => toPaymentDto(payment, orders.settings);

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
      headers: z.object({ "idempotency-key": idempotencyKeyHeaderSchema }),
      ...body(createPaymentRequestSchema),
    },
    responses: {
      201: json(successEnvelope(paymentSchema), "Created (or replayed)."),
      ...errors(401, 404, 409, 422),
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
    responses: { 200: json(successEnvelope(paymentSchema), "Submitted."), ...errors(401, 404, 409, 422) },
  });

  const evidence = createRoute({
    method: "post",
    path: "/payments/{id}/evidence",
    tags,
    summary: "Attach evidence of the transfer (the payer)",
    description: "A media asset id and/or a note (max 2000), at least one. Settled payments are 409.",
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema, ...body(paymentEvidenceRequestSchema) },
    responses: { 200: json(successEnvelope(paymentSchema), "Stored."), ...errors(401, 404, 409, 422) },
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
    responses: { 200: json(successEnvelope(paymentSchema), "Confirmed."), ...errors(401, 403, 404, 409) },
  });

  const reject = createRoute({
    method: "post",
    path: "/admin/payments/{id}/reject",
    tags: ["Administration"],
    summary: "Reject a submitted payment (administrators)",
    description:
      "Audited; the order's payment status follows; the payer may submit again. Not awaiting review: 409.",
    security: secured,
    middleware: [auth, requireRoles("admin")],
    request: { params: idParamSchema },
    responses: { 200: json(successEnvelope(paymentSchema), "Rejected."), ...errors(401, 403, 404, 409) },
  });

  return createRouter()
    .openapi(subscription, async (c) => {
      const actor = actorOf(c);
      const listingId = c.req.valid("param").id;
      const input = c.req.valid("json");
      const outcome = await createSubscriptionPayment(
        orders,
        actor,
        { listingId, method: input.method },
        {
          scope: actor.userId,
          route: `POST /api/v1/listings/${listingId}/subscription-payments`,
          key: c.req.valid("header")["idempotency-key"],
          fingerprint: fingerprintOf(input),
        },
        { toResponse: (payment) => ({ status: 201, body: present(payment) }), errorResponse: storedRefusal },
      );
      if (outcome.kind === "replay") {
        return replay(c, outcome.response, 201);
      }

      return ok(c, present(outcome.result), { status: 201 });
    })
    .openapi(submit, async (c) => {
      const input = c.req.valid("json");
      const payment = await submitPayment(orders, actorOf(c), {
        paymentId: c.req.valid("param").id,
        method: input.method,
        version: input.version,
      });

      return ok(c, present(payment));
    })
    .openapi(evidence, async (c) => {
      const input = c.req.valid("json");
      const payment = await addPaymentEvidence(orders, actorOf(c), {
        paymentId: c.req.valid("param").id,
        mediaAssetId: input.media_asset_id,
        note: input.note,
      });

      return ok(c, present(payment));
    })
    .openapi(confirm, async (c) =>
      ok(c, present(await confirmPayment(orders, actorOf(c), c.req.valid("param").id))),
    )
    .openapi(reject, async (c) =>
      ok(c, present(await rejectPayment(orders, actorOf(c), c.req.valid("param").id))),
    );
};
