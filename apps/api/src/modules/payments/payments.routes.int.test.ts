import type { ErrorEnvelope } from "@agora/contracts/envelope";
import type { PaymentDto } from "@agora/contracts/payments";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";

type ErrorBody = Pick<ErrorEnvelope, "error">;
type PaymentBody = { data: PaymentDto } & ErrorBody;

const DAY = 24 * 3600_000;

describe("payments", () => {
  let h: Harness;
  let shop: Awaited<ReturnType<Harness["orderable"]>>;
  let customer: SignedIn;
  let admin: SignedIn;

  beforeAll(async () => {
    h = await createHarness({
      config: {
        listingPlan: { priceAmount: 990, currency: "USD", durationDays: 30 },
        paymentInstructions: {
          walletone_qr: "Scan the WalletOne code at the counter.",
          wallettwo_qr: undefined,
        },
      },
    });
    shop = await h.orderable({ priceAmount: 700 });
    customer = await h.signIn();
    admin = await h.signIn({ role: "admin" });
  });
  afterAll(async () => {
    await h?.close();
  });

  const placeOrder = async (who: SignedIn = customer) => {
    const res = await h.post<{ data: { id: string } }>(
      "/api/v1/orders",
      { menu_item_id: shop.itemId, quantity: 3 },
      { token: who.accessToken },
    );

    return res.body.data.id;
  };
  const startPayment = (orderId: string, key: string, method = "walletone_qr", who: SignedIn = customer) =>
    h.post<PaymentBody>(
      `/api/v1/orders/${orderId}/payments`,
      { method },
      { token: who.accessToken, headers: { "idempotency-key": key } },
    );
  const submit = (id: string, version: number, method = "walletone_qr", who: SignedIn = customer) =>
    h.post<PaymentBody>(`/api/v1/payments/${id}/submit`, { method, version }, { token: who.accessToken });
  const orderOf = async (id: string) =>
    (
      await h.get<{ data: { status: string; payment_status: string } }>(`/api/v1/orders/${id}`, {
        token: customer.accessToken,
      })
    ).body.data;

  describe("POST /api/v1/orders/{id}/payments", () => {
    it("creates an unpaid payment for the order's total, with the method's instructions", async () => {
      const orderId = await placeOrder();
      const res = await startPayment(orderId, "pay-1");
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        purpose: "order",
        purpose_id: orderId,
        amount: 2100,
        currency: "USD",
        status: "unpaid",
        method: "walletone_qr",
        version: 1,
        instructions: "Scan the WalletOne code at the counter.",
      });
      const other = await startPayment(await placeOrder(), "pay-2", "wallettwo_qr");
      expect(other.body.data).not.toHaveProperty("instructions");
    });

    it("replays the same key, and refuses a second open payment with 409 payment_conflict", async () => {
      const orderId = await placeOrder();
      const first = await startPayment(orderId, "pay-3");
      const replayed = await startPayment(orderId, "pay-3");
      expect(replayed.status).toBe(201);
      expect(replayed.headers.get("idempotent-replayed")).toBe("true");
      expect(replayed.body.data.id).toBe(first.body.data.id);
      const second = await startPayment(orderId, "pay-4");
      expect(second.status).toBe(409);
      expect(second.body.error.code).toBe("payment_conflict");
      const changed = await startPayment(orderId, "pay-3", "wallettwo_qr");
      expect(changed.status).toBe(409);
      expect(changed.body.error.code).toBe("idempotency_conflict");
    });

    it("answers 422 for another's order, a cancelled one, a missing key or method; 401 without a token", async () => {
      const stranger = await h.signIn();
      const orderId = await placeOrder();
      expect((await startPayment(orderId, "pay-5", "walletone_qr", stranger)).status).toBe(422);
      expect((await startPayment(h.runtime.ids.next(), "pay-6")).status).toBe(422);
      const cancelled = await placeOrder();
      await h.post(
        `/api/v1/orders/${cancelled}/transition`,
        { status: "cancelled", version: 1 },
        { token: customer.accessToken },
      );
      expect((await startPayment(cancelled, "pay-7")).status).toBe(422);
      const noKey = await h.post<ErrorBody>(
        `/api/v1/orders/${orderId}/payments`,
        { method: "walletone_qr" },
        { token: customer.accessToken },
      );
      expect(noKey.status).toBe(422);
      expect(noKey.body.error.details?.[0]?.path).toBe("idempotency-key");
      expect((await startPayment(orderId, "pay-8", "card")).status).toBe(422);
      expect(
        (
          await h.post(
            `/api/v1/orders/${orderId}/payments`,
            { method: "walletone_qr" },
            { headers: { "idempotency-key": "x" } },
          )
        ).status,
      ).toBe(401);
    });
  });

  describe("submit, evidence, confirm and reject", () => {
    it("submits with the current version; a replay with the same version answers the current payment", async () => {
      const orderId = await placeOrder();
      const payment = (await startPayment(orderId, "sub-1")).body.data;
      const first = await submit(payment.id, 1);
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({ status: "payment_submitted", version: 2 });
      expect((await orderOf(orderId)).payment_status).toBe("payment_submitted");
      const again = await submit(payment.id, 1);
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual(first.body.data);
      const otherMethod = await submit(payment.id, 1, "wallettwo_qr");
      expect(otherMethod.status).toBe(409);
      expect(otherMethod.body.error.code).toBe("payment_conflict");
      expect((await submit(payment.id, 2)).status).toBe(409);
      const stranger = await h.signIn();
      expect((await submit(payment.id, 2, "walletone_qr", stranger)).status).toBe(404);
      expect(
        (
          await h.post(
            `/api/v1/payments/${payment.id}/submit`,
            { method: "walletone_qr", version: 0 },
            { token: customer.accessToken },
          )
        ).status,
      ).toBe(422);
    });

    it("stores evidence from the payer only, and refuses a media id that is no uploaded asset of theirs", async () => {
      const payment = (await startPayment(await placeOrder(), "ev-1")).body.data;
      const res = await h.post<PaymentBody>(
        `/api/v1/payments/${payment.id}/evidence`,
        { note: "Paid at 14:05, ref 8812" },
        { token: customer.accessToken },
      );
      expect(res.status).toBe(200);
      // An id that names no uploaded asset of the payer's is refused (media.routes.int.test.ts
      // covers real uploads through the object store).
      const media = h.runtime.ids.next();
      const unknown = await h.post<ErrorBody>(
        `/api/v1/payments/${payment.id}/evidence`,
        { media_asset_id: media },
        { token: customer.accessToken },
      );
      expect(unknown.status).toBe(422);
      expect(unknown.body.error.details?.[0]?.path).toBe("media_asset_id");
      const { rows } = await h.db.sql.query(
        "SELECT evidence_note, evidence_media_asset_id FROM payments WHERE id = $1",
        [payment.id],
      );
      expect(rows[0]).toEqual({ evidence_note: "Paid at 14:05, ref 8812", evidence_media_asset_id: null });
      for (const body of [{}, { note: "" }, { note: "x".repeat(2001) }, { media_asset_id: "nope" }]) {
        expect(
          (await h.post(`/api/v1/payments/${payment.id}/evidence`, body, { token: customer.accessToken }))
            .status,
          JSON.stringify(body),
        ).toBe(422);
      }
      const stranger = await h.signIn();
      expect(
        (
          await h.post(
            `/api/v1/payments/${payment.id}/evidence`,
            { note: "mine" },
            { token: stranger.accessToken },
          )
        ).status,
      ).toBe(404);
    });

    it("lets the owning provider confirm an order payment; the order follows, its workflow does not move", async () => {
      const orderId = await placeOrder();
      const payment = (await startPayment(orderId, "conf-1")).body.data;
      const early = await h.post<ErrorBody>(`/api/v1/payments/${payment.id}/confirm`, undefined, {
        token: shop.seller.accessToken,
      });
      expect(early.status).toBe(409);
      await submit(payment.id, 1);
      const byCustomer = await h.post<ErrorBody>(`/api/v1/payments/${payment.id}/confirm`, undefined, {
        token: customer.accessToken,
      });
      expect(byCustomer.status).toBe(403);
      const stranger = await h.signIn({ role: "provider" });
      expect(
        (await h.post(`/api/v1/payments/${payment.id}/confirm`, undefined, { token: stranger.accessToken }))
          .status,
      ).toBe(404);
      const res = await h.post<PaymentBody>(`/api/v1/payments/${payment.id}/confirm`, undefined, {
        token: shop.seller.accessToken,
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: "payment_confirmed", version: 3 });
      expect(await orderOf(orderId)).toMatchObject({
        status: "pending",
        payment_status: "payment_confirmed",
      });
      expect(
        (await h.post(`/api/v1/payments/${payment.id}/confirm`, undefined, { token: admin.accessToken }))
          .status,
      ).toBe(409);
      const { rows } = await h.db.sql.query<{ action: string }>(
        "SELECT action FROM audit_events WHERE target_id = $1",
        [payment.id],
      );
      expect(rows.map((r) => r.action)).toEqual(["payment.confirmed"]);
      expect((await startPayment(orderId, "conf-2")).status).toBe(409);
    });

    it("lets admins reject a submitted payment (audited), after which the payer may submit again", async () => {
      const orderId = await placeOrder();
      const payment = (await startPayment(orderId, "rej-1")).body.data;
      const notYet = await h.post<ErrorBody>(`/api/v1/admin/payments/${payment.id}/reject`, undefined, {
        token: admin.accessToken,
      });
      expect(notYet.status).toBe(409);
      await submit(payment.id, 1);
      expect(
        (
          await h.post(`/api/v1/admin/payments/${payment.id}/reject`, undefined, {
            token: shop.seller.accessToken,
          })
        ).status,
      ).toBe(403);
      const res = await h.post<PaymentBody>(`/api/v1/admin/payments/${payment.id}/reject`, undefined, {
        token: admin.accessToken,
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: "payment_rejected", version: 3 });
      expect((await orderOf(orderId)).payment_status).toBe("payment_rejected");
      const { rows } = await h.db.sql.query<{ action: string }>(
        "SELECT action FROM audit_events WHERE target_id = $1",
        [payment.id],
      );
      expect(rows.map((r) => r.action)).toEqual(["payment.rejected"]);
      const resubmitted = await submit(payment.id, 3);
      expect(resubmitted.body.data).toMatchObject({ status: "payment_submitted", version: 4 });
      expect(
        (
          await h.post(`/api/v1/admin/payments/${h.runtime.ids.next()}/reject`, undefined, {
            token: admin.accessToken,
          })
        ).status,
      ).toBe(404);
    });

    it("tells the payer when a payment is confirmed", async () => {
      const payment = (await startPayment(await placeOrder(), "note-1")).body.data;
      await submit(payment.id, 1);
      await h.post(`/api/v1/payments/${payment.id}/confirm`, undefined, { token: shop.seller.accessToken });
      await h.runOutboxOnce({ batchSize: 200 });
      const inbox = await h.get<{ data: { kind: string; data: { payment_id?: string } }[] }>(
        "/api/v1/notifications",
        { token: customer.accessToken },
      );
      expect(
        inbox.body.data.some(
          (n) => n.kind === "payment.payment_confirmed" && n.data.payment_id === payment.id,
        ),
      ).toBe(true);
    });
  });

  describe("listing subscription payments", () => {
    const subscribe = (listingId: string, key: string, who: SignedIn) =>
      h.post<PaymentBody>(
        `/api/v1/listings/${listingId}/subscription-payments`,
        { method: "walletone_qr" },
        { token: who.accessToken, headers: { "idempotency-key": key } },
      );
    const listingRow = async (id: string) =>
      (
        await h.db.sql.query<{
          status: string;
          subscription_status: string;
          subscription_expires_at: Date | null;
        }>("SELECT status, subscription_status, subscription_expires_at FROM listings WHERE id = $1", [id])
      ).rows[0];

    it("publishes a draft of an approved provider when an admin confirms the payment (payment after approval)", async () => {
      const seller = await h.provider();
      const listingId = await h.listing(seller.providerId, {
        status: "draft",
        subscription: "inactive",
        expiresAt: null,
      });
      const payment = (await subscribe(listingId, "subs-1", seller)).body.data;
      expect(payment).toMatchObject({
        purpose: "listing_subscription",
        purpose_id: listingId,
        amount: 990,
        currency: "USD",
        status: "unpaid",
      });
      await submit(payment.id, 1, "walletone_qr", seller);
      expect(
        (await h.post(`/api/v1/payments/${payment.id}/confirm`, undefined, { token: seller.accessToken }))
          .status,
      ).toBe(403);
      const confirmed = await h.post<PaymentBody>(`/api/v1/payments/${payment.id}/confirm`, undefined, {
        token: admin.accessToken,
      });
      expect(confirmed.status).toBe(200);
      const row = await listingRow(listingId);
      expect(row).toMatchObject({ status: "active", subscription_status: "active" });
      expect(row?.subscription_expires_at?.getTime()).toBe(h.clock.now().getTime() + 30 * DAY);
      expect((await h.get(`/api/v1/listings/${listingId}`)).status).toBe(200);
    });

    it("keeps a paid draft of a pending provider unpublished until approval publishes it (payment before approval)", async () => {
      const seller = await h.provider({ approved: false });
      const listingId = await h.listing(seller.providerId, {
        status: "draft",
        subscription: "inactive",
        expiresAt: null,
      });
      const payment = (await subscribe(listingId, "subs-2", seller)).body.data;
      await submit(payment.id, 1, "walletone_qr", seller);
      await h.post(`/api/v1/payments/${payment.id}/confirm`, undefined, { token: admin.accessToken });
      expect(await listingRow(listingId)).toMatchObject({ status: "draft", subscription_status: "active" });
      await h.post(`/api/v1/admin/providers/${seller.providerId}/approve`, undefined, {
        token: admin.accessToken,
      });
      expect((await listingRow(listingId))?.status).toBe("active");
      expect((await h.get(`/api/v1/listings/${listingId}`)).status).toBe(200);
    });

    it("extends from the later of now and the current expiry", async () => {
      const seller = await h.provider();
      const current = new Date(h.clock.now().getTime() + 10 * DAY);
      const listingId = await h.listing(seller.providerId, { expiresAt: current });
      const payment = (await subscribe(listingId, "subs-3", seller)).body.data;
      await submit(payment.id, 1, "walletone_qr", seller);
      await h.post(`/api/v1/payments/${payment.id}/confirm`, undefined, { token: admin.accessToken });
      expect((await listingRow(listingId))?.subscription_expires_at?.getTime()).toBe(
        current.getTime() + 30 * DAY,
      );
    });

    it("answers 404 to others, 409 for a second open payment, 422 without a key", async () => {
      const seller = await h.provider();
      const listingId = await h.listing(seller.providerId);
      expect((await subscribe(listingId, "subs-4", customer)).status).toBe(404);
      expect((await subscribe(h.runtime.ids.next(), "subs-5", seller)).status).toBe(404);
      expect((await subscribe(listingId, "subs-6", seller)).status).toBe(201);
      const second = await subscribe(listingId, "subs-7", seller);
      expect(second.status).toBe(409);
      expect(second.body.error.code).toBe("payment_conflict");
      expect(
        (
          await h.post(
            `/api/v1/listings/${listingId}/subscription-payments`,
            { method: "walletone_qr" },
            { token: seller.accessToken },
          )
        ).status,
      ).toBe(422);
    });
  });
});

describe("listing subscription payments without a plan", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it("answers 422 plan_unavailable", async () => {
    const seller = await h.provider();
    const listingId = await h.listing(seller.providerId);
    const res = await h.post<ErrorBody>(
      `/api/v1/listings/${listingId}/subscription-payments`,
      { method: "walletone_qr" },
      { token: seller.accessToken, headers: { "idempotency-key": "k" } },
    );
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("plan_unavailable");
  });
});
