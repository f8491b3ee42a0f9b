import type { ErrorEnvelope } from "@agora/contracts/envelope";
import type { CreatedOrderDto, OrderDto } from "@agora/contracts/orders";
import { onPostgres } from "@agora/db/test/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";

type ErrorBody = Pick<ErrorEnvelope, "error">;
type OrderBody = { data: CreatedOrderDto } & ErrorBody;

describe("orders", () => {
  let h: Harness;
  let shop: Awaited<ReturnType<Harness["orderable"]>>;
  let customer: SignedIn;
  let admin: SignedIn;

  beforeAll(async () => {
    h = await createHarness();
    shop = await h.orderable({ priceAmount: 1250, currency: "EUR" });
    customer = await h.signIn();
    admin = await h.signIn({ role: "admin" });
  });
  afterAll(async () => {
    await h?.close();
  });

  const order = (body: Record<string, unknown>, init: { token?: string; key?: string } = {}) =>
    h.post<OrderBody>("/api/v1/orders", body, {
      ...(init.token ? { token: init.token } : {}),
      ...(init.key ? { headers: { "idempotency-key": init.key } } : {}),
    });
  const place = async (who: SignedIn = customer, quantity = 2) => {
    const res = await order({ menu_item_id: shop.itemId, quantity }, { token: who.accessToken });
    expect(res.status).toBe(201);

    return res.body.data;
  };
  const move = (id: string, status: string, version: number, who: SignedIn) =>
    h.post<OrderBody>(`/api/v1/orders/${id}/transition`, { status, version }, { token: who.accessToken });

  describe("POST /api/v1/orders (member)", () => {
    it("copies the item's snapshot and computes the total; the customer is the caller, prices from the server", async () => {
      const res = await order(
        {
          menu_item_id: shop.itemId,
          quantity: 3,
          notes: "No onions",
          schedule_at: "2026-12-24T18:00:00Z",
          unit_price_amount: 1,
          total_amount: 1,
          customer_id: admin.user.id,
          email: "ignored@example.com",
        },
        { token: customer.accessToken },
      );
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        customer_id: customer.user.id,
        provider_id: shop.seller.providerId,
        listing_id: shop.listingId,
        menu_item_id: shop.itemId,
        item_name: "Dumplings",
        unit_price_amount: 1250,
        quantity: 3,
        total_amount: 3750,
        currency: "EUR",
        status: "pending",
        payment_status: "unpaid",
        version: 1,
        notes: "No onions",
        schedule_at: "2026-12-24T18:00:00.000Z",
      });
      expect(res.body.data).not.toHaveProperty("guest_access_token");
    });

    it("keeps the snapshot when the menu item changes later", async () => {
      const placed = await place();
      await h.patch(
        `/api/v1/menu-items/${shop.itemId}`,
        { price_amount: 9999, name: "Renamed" },
        { token: shop.seller.accessToken },
      );
      try {
        const read = await h.get<OrderBody>(`/api/v1/orders/${placed.id}`, { token: customer.accessToken });
        expect(read.body.data).toMatchObject({ item_name: "Dumplings", unit_price_amount: 1250 });
      } finally {
        await h.patch(
          `/api/v1/menu-items/${shop.itemId}`,
          { price_amount: 1250, name: "Dumplings" },
          { token: shop.seller.accessToken },
        );
      }
    });

    it("orders at the item's current price and name when it changed since the last order of it", async () => {
      const dish = await h.orderable({ priceAmount: 800, currency: "EUR" });
      const first = await order({ menu_item_id: dish.itemId, quantity: 2 }, { token: customer.accessToken });
      expect(first.body.data).toMatchObject({ unit_price_amount: 800, total_amount: 1600 });
      await h.patch(
        `/api/v1/menu-items/${dish.itemId}`,
        { price_amount: 950, name: "Big Dumplings" },
        { token: dish.seller.accessToken },
      );
      const second = await order({ menu_item_id: dish.itemId, quantity: 2 }, { token: customer.accessToken });
      expect(second.status).toBe(201);
      expect(second.body.data).toMatchObject({
        item_name: "Big Dumplings",
        unit_price_amount: 950,
        total_amount: 1900,
      });
      const { rows } = await h.db.sql.query<{ unit_price_amount: string | number }>(
        "SELECT unit_price_amount FROM orders WHERE id = $1",
        [second.body.data.id],
      );
      expect(Number(rows[0]?.unit_price_amount)).toBe(950);
    });

    it("answers 422 item_unavailable, with nothing written, once a recently ordered item or its listing stops being orderable", async () => {
      const deactivated = await h.orderable();
      const expired = await h.orderable();
      for (const shopOf of [deactivated, expired]) {
        expect(
          (await order({ menu_item_id: shopOf.itemId, quantity: 1 }, { token: customer.accessToken })).status,
        ).toBe(201);
      }
      await h.patch(
        `/api/v1/menu-items/${deactivated.itemId}`,
        { active: false },
        { token: deactivated.seller.accessToken },
      );
      await h.db.sql.query("UPDATE listings SET subscription_expires_at = $2 WHERE id = $1", [
        expired.listingId,
        new Date(h.clock.now().getTime() - 1000),
      ]);
      for (const shopOf of [deactivated, expired]) {
        const res = await order(
          { menu_item_id: shopOf.itemId, quantity: 1 },
          { token: customer.accessToken },
        );
        expect(res.status).toBe(422);
        expect(res.body.error.code).toBe("item_unavailable");
        const { rows } = await h.db.sql.query("SELECT 1 FROM orders WHERE menu_item_id = $1", [
          shopOf.itemId,
        ]);
        expect(rows).toHaveLength(1);
      }
    });

    it("answers 401 to a signed-out or suspended member's unexpired token, writing no order and recording nothing under the key", async () => {
      const leaving = await h.signIn();
      const suspended = await h.signIn();
      expect(
        (await order({ menu_item_id: shop.itemId, quantity: 1 }, { token: leaving.accessToken })).status,
      ).toBe(201);
      expect((await h.post("/api/v1/auth/logout", { refresh_token: leaving.refreshToken })).status).toBe(200);
      await h.db.sql.query("UPDATE users SET status = 'suspended' WHERE id = $1", [suspended.user.id]);
      const gone = await h.orderable();
      await h.patch(
        `/api/v1/menu-items/${gone.itemId}`,
        { active: false },
        { token: gone.seller.accessToken },
      );
      for (const who of [leaving, suspended]) {
        for (const itemId of [shop.itemId, gone.itemId]) {
          const res = await order(
            { menu_item_id: itemId, quantity: 1 },
            { token: who.accessToken, key: "k-ended" },
          );
          expect(res.status, itemId).toBe(401);
          expect(res.body.error.code).toBe("unauthorized");
        }
        const orders = await h.db.sql.query("SELECT 1 FROM orders WHERE customer_id = $1", [who.user.id]);
        expect(orders.rows).toHaveLength(who === leaving ? 1 : 0);
        const keys = await h.db.sql.query("SELECT 1 FROM idempotency_keys WHERE scope = $1", [who.user.id]);
        expect(keys.rows).toHaveLength(0);
      }
    });

    it("writes an order.created event that delivers a notification to the provider and the customer", async () => {
      const placed = await place();
      await h.runOutboxOnce({ batchSize: 100 });
      for (const who of [customer, shop.seller]) {
        const inbox = await h.get<{ data: { kind: string; data: { order_id?: string } }[] }>(
          "/api/v1/notifications",
          {
            token: who.accessToken,
          },
        );
        expect(inbox.body.data.some((n) => n.kind === "order.created" && n.data.order_id === placed.id)).toBe(
          true,
        );
      }
    });

    it("answers 422 item_unavailable for an inactive, deleted or unknown item, or a listing that is not public", async () => {
      const other = await h.orderable();
      await h.patch(
        `/api/v1/menu-items/${other.itemId}`,
        { active: false },
        { token: other.seller.accessToken },
      );
      const expired = await h.orderable();
      await h.db.sql.query("UPDATE listings SET subscription_expires_at = $2 WHERE id = $1", [
        expired.listingId,
        new Date(h.clock.now().getTime() - 1000),
      ]);
      const draft = await h.orderable();
      await h.db.sql.query("UPDATE listings SET status = 'draft' WHERE id = $1", [draft.listingId]);
      for (const menuItemId of [
        other.itemId,
        expired.itemId,
        draft.itemId,
        h.runtime.ids.next(),
        "not-a-uuid",
      ]) {
        const res = await order({ menu_item_id: menuItemId, quantity: 1 }, { token: customer.accessToken });
        expect(res.status, menuItemId).toBe(422);
        expect(res.body.error.code).toBe("item_unavailable");
      }
    });

    it("answers 422 when the total would not fit a safe integer (the multiplication is checked)", async () => {
      const pricey = await h.orderable({ priceAmount: Number.MAX_SAFE_INTEGER });
      const res = await order({ menu_item_id: pricey.itemId, quantity: 2 }, { token: customer.accessToken });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: "validation_failed", details: [{ path: "quantity" }] });
      expect(
        (await order({ menu_item_id: pricey.itemId, quantity: 1 }, { token: customer.accessToken })).status,
      ).toBe(201);
    });

    it("answers 422 for a quantity outside 1-100 and other invalid fields", async () => {
      for (const body of [
        { menu_item_id: shop.itemId, quantity: 0 },
        { menu_item_id: shop.itemId, quantity: 101 },
        { menu_item_id: shop.itemId, quantity: 1.5 },
        { menu_item_id: shop.itemId },
        { quantity: 1 },
        { menu_item_id: shop.itemId, quantity: 1, schedule_at: "tomorrow" },
        { menu_item_id: shop.itemId, quantity: 1, notes: "x".repeat(2001) },
      ]) {
        expect((await order(body, { token: customer.accessToken })).status, JSON.stringify(body)).toBe(422);
      }
      const longKey = await order(
        { menu_item_id: shop.itemId, quantity: 1 },
        { token: customer.accessToken, key: "k".repeat(129) },
      );
      expect(longKey.status).toBe(422);
      expect(
        (await order({ menu_item_id: shop.itemId, quantity: 100 }, { token: customer.accessToken })).status,
      ).toBe(201);
    });

    it("answers 401 for a malformed or expired bearer and never falls back to guest mode", async () => {
      const guestBody = {
        menu_item_id: shop.itemId,
        quantity: 1,
        email: "g@example.com",
        phone: "+1 555 0100",
      };
      for (const authorization of ["Bearer not-a-token", "Token abc", "Bearer"]) {
        const res = await h.post<ErrorBody>("/api/v1/orders", guestBody, {
          headers: { authorization, "idempotency-key": "k-401" },
        });
        expect(res.status, authorization).toBe(401);
      }
      const stale = await h.signIn();
      h.clock.advance(16 * 60_000);
      try {
        const res = await order(guestBody, { token: stale.accessToken, key: "k-expired" });
        expect(res.status).toBe(401);
      } finally {
        h.clock.advance(-16 * 60_000);
      }
      const { rows } = await h.db.sql.query("SELECT 1 FROM orders WHERE guest_email = 'g@example.com'");
      expect(rows).toHaveLength(0);
    });
  });

  describe("guest orders", () => {
    const guestBody = {
      menu_item_id: "",
      quantity: 1,
      email: "Guest@Example.com",
      phone: "+44 20 7946 0000",
    };

    it("need email, phone and an Idempotency-Key (422 naming each)", async () => {
      const res = await order({ menu_item_id: shop.itemId, quantity: 1 });
      expect(res.status).toBe(422);
      expect(res.body.error.details?.map((d) => d.path).sort()).toEqual([
        "Idempotency-Key",
        "email",
        "phone",
      ]);
    });

    it("get a 64-character capability, once, that reads that order only, for 90 days", async () => {
      const res = await order({ ...guestBody, menu_item_id: shop.itemId }, { key: "guest-1" });
      expect(res.status).toBe(201);
      const token = res.body.data.guest_access_token ?? "";
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      expect(res.body.data.customer_id).toBeNull();
      const read = (id: string, headers: Record<string, string>) =>
        h.get<OrderBody>(`/api/v1/guest/orders/${id}`, { headers });

      const ok = await read(res.body.data.id, { "x-guest-access-token": token });
      expect(ok.status).toBe(200);
      expect(ok.body.data).toMatchObject({ id: res.body.data.id, total_amount: 1250 });
      expect(ok.body.data).not.toHaveProperty("guest_access_token");

      const other = await place();
      const wrong = token.replace(/.$/, (c) => (c === "0" ? "1" : "0"));
      for (const [id, headers] of [
        [res.body.data.id, {}],
        [res.body.data.id, { "x-guest-access-token": wrong }],
        [res.body.data.id, { "x-guest-access-token": "short" }],
        [other.id, { "x-guest-access-token": token }],
      ] as const) {
        const denied = await read(id, headers);
        expect(denied.status).toBe(404);
        expect(denied.body.error.code).toBe("not_found");
      }
      // The token itself is stored nowhere: not in the order row, not in the replayable response.
      const { rows } = await h.db.sql.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM orders o WHERE row_to_json(o)::text LIKE '%' || $1 || '%')
              + (SELECT count(*) FROM idempotency_keys k WHERE row_to_json(k)::text LIKE '%' || $1 || '%') AS n`,
        [token],
      );
      expect(Number(rows[0]?.n)).toBe(0);
      const start = h.clock.now();
      h.clock.advance(90 * 24 * 3600_000 + 1000);
      try {
        expect((await read(res.body.data.id, { "x-guest-access-token": token })).status).toBe(404);
      } finally {
        h.clock.set(start);
      }
    });

    it("cannot read the order through the member routes", async () => {
      const res = await order({ ...guestBody, menu_item_id: shop.itemId }, { key: "guest-2" });
      expect(
        (await h.get(`/api/v1/orders/${res.body.data.id}`, { token: customer.accessToken })).status,
      ).toBe(404);
    });
  });

  describe("Idempotency-Key", () => {
    it("replays the first response for the same key and body, with the same guest capability", async () => {
      const body = {
        ...{ menu_item_id: shop.itemId, quantity: 2 },
        email: "replay@example.com",
        phone: "+1 555 0101",
      };
      const first = await order(body, { key: "replay-1" });
      const second = await order(body, { key: "replay-1" });
      expect(second.status).toBe(201);
      expect(second.headers.get("idempotent-replayed")).toBe("true");
      expect(first.headers.get("idempotent-replayed")).toBeNull();
      expect(second.body.data).toEqual(first.body.data);
      expect(second.body.data.guest_access_token).toBe(first.body.data.guest_access_token);
      const { rows } = await h.db.sql.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM orders WHERE guest_email = 'replay@example.com'",
      );
      expect(rows[0]?.n).toBe(1);
      const stored = await h.db.sql.query<{ body: string }>(
        "SELECT row_to_json(k)::text AS body FROM idempotency_keys k WHERE key = 'replay-1'",
      );
      expect(stored.rows[0]?.body).not.toContain(first.body.data.guest_access_token ?? "none");
    });

    it("answers 409 idempotency_conflict for the same key with another body", async () => {
      await order(
        { menu_item_id: shop.itemId, quantity: 1 },
        { token: customer.accessToken, key: "conflict-1" },
      );
      const res = await order(
        { menu_item_id: shop.itemId, quantity: 5 },
        { token: customer.accessToken, key: "conflict-1" },
      );
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("idempotency_conflict");
    });

    it("scopes keys to the caller: another user's same key is another order", async () => {
      const other = await h.signIn();
      const a = await order(
        { menu_item_id: shop.itemId, quantity: 1 },
        { token: customer.accessToken, key: "shared-key" },
      );
      const b = await order(
        { menu_item_id: shop.itemId, quantity: 1 },
        { token: other.accessToken, key: "shared-key" },
      );
      expect(b.status).toBe(201);
      expect(b.body.data.id).not.toBe(a.body.data.id);
      expect(b.headers.get("idempotent-replayed")).toBeNull();
    });

    it("replays a refusal too, even once the item is back", async () => {
      const other = await h.orderable();
      await h.patch(
        `/api/v1/menu-items/${other.itemId}`,
        { active: false },
        { token: other.seller.accessToken },
      );
      const first = await order(
        { menu_item_id: other.itemId, quantity: 1 },
        { token: customer.accessToken, key: "refused-1" },
      );
      expect(first.status).toBe(422);
      await h.patch(
        `/api/v1/menu-items/${other.itemId}`,
        { active: true },
        { token: other.seller.accessToken },
      );
      const again = await order(
        { menu_item_id: other.itemId, quantity: 1 },
        { token: customer.accessToken, key: "refused-1" },
      );
      expect(again.status).toBe(422);
      expect(again.body.error.code).toBe("item_unavailable");
      expect(again.headers.get("idempotent-replayed")).toBe("true");
    });

    it("forgets a key after 24 hours: the same key then makes a new order", async () => {
      const first = await order(
        { menu_item_id: shop.itemId, quantity: 1 },
        { token: customer.accessToken, key: "old-key" },
      );
      const start = h.clock.now();
      h.clock.advance(24 * 3600_000 + 1000);
      try {
        const fresh = await h.openSession(customer.user);
        const again = await order(
          { menu_item_id: shop.itemId, quantity: 1 },
          { token: fresh.accessToken, key: "old-key" },
        );
        expect(again.status).toBe(201);
        expect(again.headers.get("idempotent-replayed")).toBeNull();
        expect(again.body.data.id).not.toBe(first.body.data.id);
      } finally {
        h.clock.set(start);
      }
    });
  });

  describe.skipIf(!onPostgres)("Idempotency-Key under real concurrency (PostgreSQL only)", () => {
    it("turns 20 parallel creations with one key into one order", async () => {
      const body = { menu_item_id: shop.itemId, quantity: 1 };
      const results = await Promise.all(
        Array.from({ length: 20 }, () => order(body, { token: customer.accessToken, key: "parallel-20" })),
      );
      const created = results.filter((r) => r.status === 201);
      expect(
        results.every(
          (r) => r.status === 201 || (r.status === 409 && r.body.error.code === "idempotency_in_progress"),
        ),
      ).toBe(true);
      expect(new Set(created.map((r) => r.body.data.id)).size).toBe(1);
      const { rows } = await h.db.sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM orders WHERE customer_id = $1 AND id = $2`,
        [customer.user.id, created[0]?.body.data.id],
      );
      expect(rows[0]?.n).toBe(1);
      const count = await h.db.sql.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM outbox_events WHERE aggregate_id = $1",
        [created[0]?.body.data.id],
      );
      expect(count.rows[0]?.n).toBe(1);
    });
  });

  describe("reading orders", () => {
    it("GET /orders lists the caller's orders as customer and as provider, newest first, paginated", async () => {
      const buyer = await h.signIn();
      const seller = await h.orderable();
      const mine = [];
      for (let i = 0; i < 3; i += 1) {
        h.clock.advance(1000);
        mine.push(
          (await order({ menu_item_id: seller.itemId, quantity: 1 }, { token: buyer.accessToken })).body.data
            .id,
        );
      }
      const res = await h.get<{ data: OrderDto[]; meta: unknown }>("/api/v1/orders?limit=2", {
        token: buyer.accessToken,
      });
      expect(res.status).toBe(200);
      expect(res.body.data.map((o) => o.id)).toEqual([mine[2], mine[1]]);
      expect(res.body.meta).toEqual({ limit: 2, offset: 0, total: 3 });
      const asSeller = await h.get<{ data: OrderDto[]; meta: { total: number } }>("/api/v1/orders", {
        token: seller.seller.accessToken,
      });
      expect(asSeller.body.data.map((o) => o.id)).toEqual([...mine].reverse());
      const stranger = await h.signIn();
      expect(
        (await h.get<{ meta: { total: number } }>("/api/v1/orders", { token: stranger.accessToken })).body
          .meta.total,
      ).toBe(0);
    });

    it("GET /orders answers 422 for invalid pagination and 401 without a token", async () => {
      for (const query of ["?limit=0", "?limit=101", "?limit=abc", "?offset=-1", "?offset=1.5"]) {
        expect((await h.get(`/api/v1/orders${query}`, { token: customer.accessToken })).status, query).toBe(
          422,
        );
      }
      expect((await h.get("/api/v1/orders")).status).toBe(401);
    });

    it("GET /orders/{id} serves the customer, the provider and admins; 404 for anyone else", async () => {
      const placed = await place();
      for (const who of [customer, shop.seller, admin]) {
        expect((await h.get(`/api/v1/orders/${placed.id}`, { token: who.accessToken })).status).toBe(200);
      }
      const stranger = await h.signIn({ role: "provider" });
      expect((await h.get(`/api/v1/orders/${placed.id}`, { token: stranger.accessToken })).status).toBe(404);
      expect(
        (await h.get(`/api/v1/orders/${h.runtime.ids.next()}`, { token: customer.accessToken })).status,
      ).toBe(404);
      expect((await h.get(`/api/v1/orders/${placed.id}`)).status).toBe(401);
    });
  });

  describe("transitions", () => {
    it("let the provider confirm, start and complete; completion records one snapshot and one sale", async () => {
      const placed = await place(customer, 4);
      let res = await move(placed.id, "confirmed", 1, shop.seller);
      expect(res.body.data).toMatchObject({ status: "confirmed", version: 2 });
      res = await move(placed.id, "in_progress", 2, shop.seller);
      expect(res.body.data).toMatchObject({ status: "in_progress", version: 3 });
      res = await move(placed.id, "completed", 3, shop.seller);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: "completed", version: 4 });
      const snapshot = await h.db.sql.query<{ data: { total_amount: number } }>(
        "SELECT data FROM completed_orders WHERE order_id = $1",
        [placed.id],
      );
      expect(snapshot.rows).toHaveLength(1);
      expect(snapshot.rows[0]?.data.total_amount).toBe(5000);
      const sale = await h.db.sql.query<{ amount: string; source: string }>(
        "SELECT amount::text AS amount, source FROM sales WHERE order_id = $1",
        [placed.id],
      );
      expect(sale.rows).toEqual([{ amount: "5000", source: "order" }]);
      const again = await move(placed.id, "completed", 4, shop.seller);
      expect(again.status).toBe(422);
      expect(again.body.error.code).toBe("invalid_transition");
      const dashboard = await h.get<{
        data: { orders_by_status: Record<string, number>; revenue_30d: { orders: number }[] };
      }>("/api/v1/providers/me/dashboard", { token: shop.seller.accessToken });
      expect(dashboard.body.data.orders_by_status.completed).toBeGreaterThanOrEqual(1);
      expect(dashboard.body.data.revenue_30d[0]?.orders).toBeGreaterThanOrEqual(5000);
    });

    it("let the customer cancel while pending or confirmed, and nothing else", async () => {
      const pending = await place();
      expect((await move(pending.id, "confirmed", 1, customer)).status).toBe(403);
      expect((await move(pending.id, "completed", 1, customer)).status).toBe(403);
      const cancelled = await move(pending.id, "cancelled", 1, customer);
      expect(cancelled.body.data).toMatchObject({ status: "cancelled", version: 2 });
      expect((await move(pending.id, "cancelled", 2, customer)).status).toBe(422);
      expect((await move(pending.id, "confirmed", 2, shop.seller)).status).toBe(422);

      const confirmed = await place();
      await move(confirmed.id, "confirmed", 1, shop.seller);
      expect((await move(confirmed.id, "cancelled", 2, customer)).status).toBe(200);

      const started = await place();
      await move(started.id, "confirmed", 1, shop.seller);
      await move(started.id, "in_progress", 2, shop.seller);
      const late = await move(started.id, "cancelled", 3, customer);
      expect(late.status).toBe(422);
      expect(late.body.error.code).toBe("invalid_transition");
      expect((await move(started.id, "cancelled", 3, shop.seller)).status).toBe(200);
    });

    it("answer 409 order_conflict for a stale version, 422 for same-state or skipped moves, 404 for strangers", async () => {
      const placed = await place();
      const stale = await move(placed.id, "confirmed", 2, shop.seller);
      expect(stale.status).toBe(409);
      expect(stale.body.error.code).toBe("order_conflict");
      expect((await move(placed.id, "in_progress", 1, shop.seller)).status).toBe(422);
      expect((await move(placed.id, "completed", 1, shop.seller)).status).toBe(422);
      const stranger = await h.signIn();
      expect((await move(placed.id, "cancelled", 1, stranger)).status).toBe(404);
      const bad = await h.post<ErrorBody>(
        `/api/v1/orders/${placed.id}/transition`,
        { status: "pending", version: 1 },
        { token: shop.seller.accessToken },
      );
      expect(bad.status).toBe(422);
      expect(bad.body.error.code).toBe("validation_failed");
      expect(
        (
          await h.post(
            `/api/v1/orders/${placed.id}/transition`,
            { status: "confirmed", version: 0 },
            { token: shop.seller.accessToken },
          )
        ).status,
      ).toBe(422);
      expect(
        (await h.post(`/api/v1/orders/${placed.id}/transition`, { status: "confirmed", version: 1 })).status,
      ).toBe(401);
    });

    it("POST /admin/orders/{id}/transition: admins only (403), version checked (409), audited", async () => {
      const placed = await place();
      const forbidden = await h.post<ErrorBody>(
        `/api/v1/admin/orders/${placed.id}/transition`,
        { status: "confirmed", version: 1 },
        { token: shop.seller.accessToken },
      );
      expect(forbidden.status).toBe(403);
      const stale = await h.post<ErrorBody>(
        `/api/v1/admin/orders/${placed.id}/transition`,
        { status: "confirmed", version: 5 },
        { token: admin.accessToken },
      );
      expect(stale.status).toBe(409);
      const res = await h.post<OrderBody>(
        `/api/v1/admin/orders/${placed.id}/transition`,
        { status: "confirmed", version: 1 },
        { token: admin.accessToken },
      );
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe("confirmed");
      const { rows } = await h.db.sql.query<{ actor_id: string; details: Record<string, unknown> }>(
        "SELECT actor_id, before, after FROM audit_events WHERE target_id = $1 AND action = 'order.transitioned'",
        [placed.id],
      );
      expect(rows).toEqual([
        {
          actor_id: admin.user.id,
          before: { status: "pending", version: 1 },
          after: { status: "confirmed", version: 2 },
        },
      ]);
      expect(
        (
          await h.post(
            `/api/v1/admin/orders/${h.runtime.ids.next()}/transition`,
            { status: "confirmed", version: 1 },
            { token: admin.accessToken },
          )
        ).status,
      ).toBe(404);
    });

    it("notify the other side of the order", async () => {
      const placed = await place();
      await move(placed.id, "confirmed", 1, shop.seller);
      await h.runOutboxOnce({ batchSize: 200 });
      const inbox = await h.get<{ data: { kind: string; data: { order_id?: string; status?: string } }[] }>(
        "/api/v1/notifications",
        { token: customer.accessToken },
      );
      expect(
        inbox.body.data.some(
          (n) =>
            n.kind === "order.status_changed" &&
            n.data.order_id === placed.id &&
            n.data.status === "confirmed",
        ),
      ).toBe(true);
    });
  });

  describe.skipIf(!onPostgres)("transitions under real concurrency (PostgreSQL only)", () => {
    it("lets one of two parallel transitions with the same version win; the other gets 409", async () => {
      const placed = await place();
      const results = await Promise.all([
        move(placed.id, "confirmed", 1, shop.seller),
        move(placed.id, "cancelled", 1, shop.seller),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    });

    it("records one snapshot and one sale for two parallel completions", async () => {
      const placed = await place();
      await move(placed.id, "confirmed", 1, shop.seller);
      const results = await Promise.all([
        move(placed.id, "completed", 2, shop.seller),
        move(placed.id, "completed", 2, admin),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const snapshots = await h.db.sql.query("SELECT 1 FROM completed_orders WHERE order_id = $1", [
        placed.id,
      ]);
      const sales = await h.db.sql.query("SELECT 1 FROM sales WHERE order_id = $1", [placed.id]);
      expect(snapshots.rows).toHaveLength(1);
      expect(sales.rows).toHaveLength(1);
    });
  });
});

describe("guest order limits", () => {
  let h: Harness;
  let shop: Awaited<ReturnType<Harness["orderable"]>>;

  beforeAll(async () => {
    h = await createHarness({
      config: { trustProxy: true, rateLimitGuestOrdersPerIp: 5, rateLimitGuestOrdersPerEmail: 3 },
    });
    shop = await h.orderable();
  });
  afterAll(async () => {
    await h?.close();
  });

  const guestOrder = (email: string, ip: string, key = h.runtime.ids.next()) =>
    h.post<OrderBody>(
      "/api/v1/orders",
      { menu_item_id: shop.itemId, quantity: 1, email, phone: "+1 555 0100" },
      { headers: { "idempotency-key": key, "x-forwarded-for": ip } },
    );
  const guestOrders = async () =>
    (await h.db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM orders WHERE customer_id IS NULL"))
      .rows[0]?.n;

  it("answers a burst of guest orders from one address with 429 and Retry-After past the limit", async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => guestOrder(`burst${i}@example.com`, "198.51.100.20")),
    );
    const statuses = results.map((res) => res.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
    const limited = results.find((res) => res.status === 429);
    expect(limited?.body.error.code).toBe("rate_limited");
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await guestOrders()).toBe(5);
    // Another address is not affected; a neighbour in the same IPv6 /64 is.
    expect((await guestOrder("elsewhere@example.com", "198.51.100.21")).status).toBe(201);
    for (let i = 0; i < 5; i += 1) {
      await guestOrder(`v6-${i}@example.com`, `2001:db8:5:6::${i + 1}`);
    }
    expect((await guestOrder("v6-next@example.com", "2001:db8:5:6:aaaa::1")).status).toBe(429);
  });

  it("limits guest orders per email across addresses, and never limits members this way", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      statuses.push((await guestOrder("Same.Guest@example.com", `203.0.113.${40 + i}`)).status);
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
    const member = await h.signIn();
    for (let i = 0; i < 8; i += 1) {
      const res = await h.post(
        "/api/v1/orders",
        { menu_item_id: shop.itemId, quantity: 1 },
        { token: member.accessToken, headers: { "x-forwarded-for": "198.51.100.20" } },
      );
      expect(res.status).toBe(201);
    }
  });

  it("lets the window pass: an hour later the address may order again", async () => {
    h.clock.advance(3600_000 + 1000);
    expect((await guestOrder("after@example.com", "198.51.100.20")).status).toBe(201);
  });
});

// The order's write checks, in its own statement, that the item is still what the order was
// decided from. Here the item's price really changes (in the database) between each attempt's read
// of the item and its write, as a provider editing the item at that moment would.
describe("an item that changes while its order is being placed", () => {
  let h: Harness;
  let shop: Awaited<ReturnType<Harness["orderable"]>>;
  let customer: SignedIn;
  let changesLeft = 0;
  let changed = 0;

  beforeAll(async () => {
    h = await createHarness({
      wrapSql: (sql) => {
        const query = (async (text: string, params?: readonly unknown[], name?: string) => {
          if (changesLeft > 0 && name?.startsWith("orders_place")) {
            changesLeft -= 1;
            changed += 1;
            await sql.query("UPDATE menu_items SET price_amount = price_amount + 100 WHERE id = $1", [
              shop.itemId,
            ]);
          }

          return sql.query(text, params, name);
        }) as typeof sql.query;

        return { ...sql, query };
      },
    });
    shop = await h.orderable({ priceAmount: 1000, currency: "EUR" });
    customer = await h.signIn();
  });
  afterAll(async () => {
    await h?.close();
  });

  const placeOrder = (key: string) =>
    h.post<OrderBody>(
      "/api/v1/orders",
      { menu_item_id: shop.itemId, quantity: 2 },
      { token: customer.accessToken, headers: { "idempotency-key": key } },
    );
  const written = async () => {
    const { rows } = await h.db.sql.query<{ orders: number; events: number; keys: number }>(
      `SELECT (SELECT count(*)::int FROM orders WHERE customer_id = $1) AS orders,
              (SELECT count(*)::int FROM outbox_events WHERE kind = 'order.created'
                  AND payload->>'customer_id' = $1::text) AS events,
              (SELECT count(*)::int FROM idempotency_keys WHERE key = 'k-changing') AS keys`,
      [customer.user.id],
    );

    return rows[0];
  };

  it("reads the item again and charges what it costs at the write", async () => {
    changesLeft = 1;
    const res = await placeOrder("k-changed-once");
    expect(res.status).toBe(201);
    expect(changed).toBe(1);
    expect(res.body.data).toMatchObject({ unit_price_amount: 1100, total_amount: 2200 });
  });

  it("gives up after three attempts with 503 service_unavailable and Retry-After, having written nothing; the same key then places it", async () => {
    const before = await written();
    changed = 0;
    changesLeft = 3;
    const res = await placeOrder("k-changing");
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("service_unavailable");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(changed).toBe(3);
    expect(await written()).toEqual(before);

    // Nothing was recorded under the key: the client's retry is a new attempt, at today's price.
    const retry = await placeOrder("k-changing");
    expect(retry.status).toBe(201);
    expect(retry.body.data).toMatchObject({ unit_price_amount: 1400, total_amount: 2800 });
    expect(await written()).toMatchObject({
      orders: (before?.orders ?? 0) + 1,
      events: (before?.events ?? 0) + 1,
      keys: 1,
    });
  });
});
