import { onPostgres } from "@agora/db/test/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";

type Meta = { limit: number; offset: number; total: number };
type Envelope<T> = {
  data: T;
  meta: Meta | null;
  error: { code: string; details?: { path: string }[] } | null;
};
type Item = { id: string; status?: string; [key: string]: unknown };

describe("administration", () => {
  let h: Harness;
  let admin: SignedIn;
  let member: SignedIn;
  let accountant: SignedIn;
  let services: { id: string; name: string }[];
  let categoryOf: Map<string, string>;
  // Two sellers in two services, with one order each.
  let food: { listingId: string; itemId: string; seller: SignedIn & { providerId: string }; orderId: string };
  let home: { listingId: string; itemId: string; seller: SignedIn & { providerId: string }; orderId: string };

  const as = (s: SignedIn) => ({ token: s.accessToken });
  const list = (s: SignedIn, kind: string, query = "") =>
    h.get<Envelope<Item[]>>(`/api/v1/admin/${kind}${query}`, as(s));
  const placeOrder = async (itemId: string, customer: SignedIn) => {
    const res = await h.post<Envelope<{ id: string }>>(
      "/api/v1/orders",
      { menu_item_id: itemId, quantity: 2 },
      as(customer),
    );
    expect(res.status).toBe(201);

    return res.body.data.id;
  };

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.signIn({ role: "admin" });
    member = await h.signIn();
    accountant = await h.signIn({ role: "accountant" });
    services = (await h.get<Envelope<{ id: string; name: string }[]>>("/api/v1/catalog/services")).body.data;
    const categories = (
      await h.get<Envelope<{ id: string; service_id: string }[]>>("/api/v1/catalog/categories")
    ).body.data;
    categoryOf = new Map();
    for (const category of categories) {
      if (!categoryOf.has(category.service_id)) {
        categoryOf.set(category.service_id, category.id);
      }
    }
    const seller = async (serviceIndex: number, name: string) => {
      const s = await h.provider({ displayName: name });
      const service = services[serviceIndex];
      const listingId = await h.listing(s.providerId, {
        name: `${name} listing`,
        categoryId: categoryOf.get(service?.id ?? "") ?? "",
        items: [{ name: `${name} special`, priceAmount: 1000 }],
      });
      const { rows } = await h.db.sql.query<{ id: string }>(
        "SELECT id FROM menu_items WHERE listing_id = $1",
        [listingId],
      );

      return { seller: s, listingId, itemId: rows[0]?.id ?? "" };
    };
    const a = await seller(0, "Noodle Bar");
    const b = await seller(1, "Spotless Cleaning");
    food = { ...a, orderId: await placeOrder(a.itemId, member) };
    home = { ...b, orderId: await placeOrder(b.itemId, member) };
  });
  afterAll(async () => {
    await h?.close();
  });

  describe("GET /api/v1/admin/{kind}", () => {
    it("lists every kind with meta, newest first, to administrators", async () => {
      for (const kind of [
        "users",
        "accountants",
        "services",
        "providers",
        "listings",
        "orders",
        "payments",
      ]) {
        const res = await list(admin, kind, "?limit=2");
        expect(res.status, kind).toBe(200);
        expect(res.body.meta, kind).toMatchObject({ limit: 2, offset: 0 });
        expect(res.body.data.length, kind).toBeLessThanOrEqual(2);
      }
      const users = await list(admin, "users", "?limit=100");
      expect(users.body.meta?.total).toBe(users.body.data.length);
      expect(users.body.data[0]?.id).toBe(home.seller.user.id);
    });

    it("searches and filters each kind in SQL, and shows an admin what the public no longer sees", async () => {
      const byEmail = await list(
        admin,
        "users",
        `?q=${encodeURIComponent(member.user.email.slice(0, 8).toUpperCase())}`,
      );
      expect(byEmail.body.data.map((user) => user.id)).toContain(member.user.id);
      expect((await list(admin, "users", "?status=suspended")).body.data).toEqual([]);
      const accountants = await list(admin, "accountants");
      expect(accountants.body.data.map((user) => user.id)).toEqual([accountant.user.id]);
      expect(accountants.body.data[0]?.service_ids).toEqual([]);

      await h.delete(`/api/v1/listings/${food.listingId}`, as(food.seller));
      expect((await h.get(`/api/v1/listings/${food.listingId}`)).status).toBe(404);
      const inactive = await list(admin, "listings", "?status=inactive&q=noodle");
      expect(inactive.body.data.map((listing) => listing.id)).toEqual([food.listingId]);
      expect(inactive.body.data[0]?.status).toBe("inactive");

      const orders = await list(admin, "orders", "?q=special&status=pending");
      expect(orders.body.data.map((order) => order.id).sort()).toEqual([food.orderId, home.orderId].sort());
      expect(orders.body.meta?.total).toBe(2);
      // A search pages like any list: the second page holds the rest, a page past the end none,
      // and every page knows the total.
      const second = await list(admin, "orders", "?q=special&status=pending&limit=1&offset=1");
      expect(second.body.data).toHaveLength(1);
      expect(second.body.meta).toEqual({ limit: 1, offset: 1, total: 2 });
      const past = await list(admin, "orders", "?q=special&status=pending&offset=5");
      expect(past.body.data).toEqual([]);
      expect(past.body.meta).toEqual({ limit: 20, offset: 5, total: 2 });
      expect((await list(admin, "orders", "?q=no-such-dish")).body.meta?.total).toBe(0);
      expect((await list(admin, "orders", `?q=${home.orderId}`)).body.data.map((order) => order.id)).toEqual([
        home.orderId,
      ]);
      expect((await list(admin, "orders", `?q=${home.orderId}&status=completed`)).body.data).toEqual([]);
      expect((await list(admin, "providers", "?q=spotless")).body.data.map((p) => p.id)).toEqual([
        home.seller.providerId,
      ]);
      expect((await list(admin, "providers", "?status=pending")).body.data).toEqual([]);
      const allServices = await list(admin, "services", "?limit=100");
      expect(allServices.body.meta?.total).toBe(services.length);
      expect(allServices.body.data.every((service) => service.active === true)).toBe(true);
    });

    it("answers 404 for an unknown kind, 422 for a bad status, pagination or short q, 403 and 401 for the wrong callers", async () => {
      const unknown = await list(admin, "widgets");
      expect(unknown.status).toBe(404);
      for (const query of ["?status=archived", "?limit=0", "?limit=101", "?offset=-1", "?limit=x", "?q=ab"]) {
        const res = await list(admin, "orders", query);
        expect(res.status, query).toBe(422);
        expect(res.body.error?.code).toBe("validation_failed");
      }
      expect((await list(admin, "users", "?status=active")).status).toBe(200);
      expect((await list(admin, "listings", "?status=pending_verification")).status).toBe(422);
      expect((await list(member, "users")).status).toBe(403);
      expect((await list(accountant, "users")).status).toBe(403);
      expect((await h.get("/api/v1/admin/users")).status).toBe(401);
    });
  });

  describe("accountants: assignments, scoped order reads and reports", () => {
    it("replaces the assigned services atomically, audited with the sets before and after", async () => {
      const path = `/api/v1/admin/accountants/${accountant.user.id}/services`;
      const first = await h.put<Envelope<{ services: { id: string }[] }>>(
        path,
        { service_ids: [services[1]?.id] },
        as(admin),
      );
      expect(first.status).toBe(200);
      expect(first.body.data.services.map((service) => service.id)).toEqual([services[1]?.id]);
      const got = await h.get<Envelope<{ accountant_id: string; services: { id: string; name: string }[] }>>(
        path,
        as(admin),
      );
      expect(got.body.data).toEqual({
        accountant_id: accountant.user.id,
        services: [{ id: services[1]?.id, name: services[1]?.name }],
      });
      const { rows } = await h.db.sql.query<{ before: unknown; after: unknown }>(
        "SELECT before, after FROM audit_events WHERE action = 'accountant.services_replaced' AND target_id = $1",
        [accountant.user.id],
      );
      expect(rows).toEqual([{ before: { service_ids: [] }, after: { service_ids: [services[1]?.id] } }]);
    });

    it("answers 422 for a non-accountant, an unknown service or a missing service_ids, 404 on GET for a non-accountant, 403 to others", async () => {
      const path = (id: string) => `/api/v1/admin/accountants/${id}/services`;
      const notAccountant = await h.put<Envelope<null>>(path(member.user.id), { service_ids: [] }, as(admin));
      expect(notAccountant.status).toBe(422);
      const unknownService = await h.put<Envelope<null>>(
        path(accountant.user.id),
        { service_ids: [services[0]?.id, h.runtime.ids.next(), "nope"] },
        as(admin),
      );
      expect(unknownService.status).toBe(422);
      expect(unknownService.body.error?.details?.map((detail) => detail.path)).toEqual([
        "service_ids.1",
        "service_ids.2",
      ]);
      expect((await h.put(path(accountant.user.id), {}, as(admin))).status).toBe(422);
      expect((await h.get(path(member.user.id), as(admin))).status).toBe(404);
      expect((await h.put(path(accountant.user.id), { service_ids: [] }, as(member))).status).toBe(403);
      expect((await h.get(path(accountant.user.id), as(accountant))).status).toBe(403);
      // The refusals changed nothing.
      const current = await h.get<Envelope<{ services: { id: string }[] }>>(
        path(accountant.user.id),
        as(admin),
      );
      expect(current.body.data.services.map((service) => service.id)).toEqual([services[1]?.id]);
    });

    it("lets an accountant read the orders of the assigned services only, and move none", async () => {
      expect((await h.get(`/api/v1/orders/${home.orderId}`, as(accountant))).status).toBe(200);
      expect((await h.get(`/api/v1/orders/${food.orderId}`, as(accountant))).status).toBe(404);
      const scoped = await list(accountant, "orders", "?limit=100");
      expect(scoped.status).toBe(200);
      expect(scoped.body.data.map((order) => order.id)).toEqual([home.orderId]);
      const cancel = await h.post(
        `/api/v1/orders/${home.orderId}/transition`,
        { status: "cancelled", version: 1 },
        as(accountant),
      );
      expect(cancel.status).toBe(403);
      const other = await h.signIn({ role: "accountant" });
      expect((await list(other, "orders")).body.data).toEqual([]);
      expect((await h.get(`/api/v1/orders/${home.orderId}`, as(other))).status).toBe(404);
    });

    it("summarizes the last 30 days: everything for an admin, the assigned services for an accountant, zeros with none", async () => {
      // Complete the home order and record a manual sale for each seller.
      for (const to of ["confirmed", "completed"]) {
        const version = to === "confirmed" ? 1 : 2;
        expect(
          (
            await h.post(
              `/api/v1/orders/${home.orderId}/transition`,
              { status: to, version },
              as(home.seller),
            )
          ).status,
        ).toBe(200);
      }
      for (const seller of [food.seller, home.seller]) {
        const sale = await h.post(
          "/api/v1/providers/me/sales",
          { amount: 500, currency: "usd", description: "Walk-in" },
          as(seller),
        );
        expect(sale.status).toBe(201);
      }
      type Summary = {
        scope: string;
        orders_by_status: Record<string, number>;
        completed_gross: { currency: string; amount: number; count: number }[];
        manual_sales: { currency: string; amount: number; count: number }[];
        payments: { confirmed: number; awaiting_review: number };
        new_listings: number;
      };
      const all = await h.get<Envelope<Summary>>("/api/v1/reports/summary", as(admin));
      expect(all.status).toBe(200);
      expect(all.body.data).toMatchObject({
        scope: "all",
        orders_by_status: { pending: 1, completed: 1 },
        completed_gross: [{ currency: "USD", amount: 2000, count: 1 }],
        manual_sales: [{ currency: "USD", amount: 1000, count: 2 }],
        payments: { confirmed: 0, awaiting_review: 0 },
        new_listings: 2,
      });
      const scoped = await h.get<Envelope<Summary>>("/api/v1/reports/summary", as(accountant));
      expect(scoped.body.data).toMatchObject({
        scope: "assigned_services",
        orders_by_status: { completed: 1 },
        completed_gross: [{ currency: "USD", amount: 2000, count: 1 }],
        manual_sales: [{ currency: "USD", amount: 500, count: 1 }],
        new_listings: 1,
      });
      const none = await h.get<Envelope<Summary>>(
        "/api/v1/reports/summary",
        as(await h.signIn({ role: "accountant" })),
      );
      expect(none.body.data).toMatchObject({
        orders_by_status: {},
        completed_gross: [],
        manual_sales: [],
        payments: { confirmed: 0, awaiting_review: 0 },
        new_listings: 0,
      });
      expect((await h.get("/api/v1/reports/summary", as(member))).status).toBe(403);
      expect((await h.get("/api/v1/reports/summary")).status).toBe(401);
    });
  });

  describe("GET /api/v1/admin/audit", () => {
    it("lists events newest first with before, after and the request id, filtered by action, actor, target and time", async () => {
      const since = h.clock.now();
      h.clock.advance(1_000);
      const change = await h.patch(
        `/api/v1/admin/users/${member.user.id}/role`,
        { role: "provider" },
        as(admin),
      );
      h.clock.advance(1_000);
      await h.patch(`/api/v1/admin/users/${member.user.id}/role`, { role: "member" }, as(admin));
      type Event = {
        action: string;
        actor_id: string;
        target_id: string;
        before: unknown;
        after: unknown;
        request_id: string;
      };
      const res = await h.get<Envelope<Event[]>>(
        `/api/v1/admin/audit?action=user.role_changed&target_id=${member.user.id}&actor_id=${admin.user.id}&since=${encodeURIComponent(since.toISOString())}`,
        as(admin),
      );
      expect(res.status).toBe(200);
      expect(res.body.data.map((event) => event.after)).toEqual([{ role: "member" }, { role: "provider" }]);
      expect(res.body.data[1]).toMatchObject({
        before: { role: "member" },
        request_id: change.headers.get("x-request-id"),
      });
      expect(res.body.meta).toEqual({ limit: 50, offset: 0, total: 2 });
      expect(
        (await h.get<Envelope<Event[]>>("/api/v1/admin/audit?actor_id=not-a-uuid", as(admin))).body.data,
      ).toEqual([]);
      expect((await h.get("/api/v1/admin/audit?since=yesterday", as(admin))).status).toBe(422);
      expect((await h.get("/api/v1/admin/audit", as(accountant))).status).toBe(403);
    });
  });

  it.skipIf(!onPostgres)(
    "serializes parallel replacements of one accountant's services: each audit event's before is the previous after (PostgreSQL only: parallel connections)",
    async () => {
      const target = await h.signIn({ role: "accountant" });
      const sets = services.map((service) => [service.id]);
      const answers = await Promise.all(
        sets.map((set) =>
          h.put(`/api/v1/admin/accountants/${target.user.id}/services`, { service_ids: set }, as(admin)),
        ),
      );
      expect(answers.map((res) => res.status)).toEqual(sets.map(() => 200));
      const { rows } = await h.db.sql.query<{
        before: { service_ids: string[] };
        after: { service_ids: string[] };
      }>(
        "SELECT before, after FROM audit_events WHERE action = 'accountant.services_replaced' AND target_id = $1 ORDER BY created_at, id",
        [target.user.id],
      );
      expect(rows).toHaveLength(sets.length);
      let previous: string[] = [];
      for (const row of rows) {
        expect(row.before.service_ids).toEqual(previous);
        previous = row.after.service_ids;
      }
      const current = await h.db.sql.query<{ service_id: string }>(
        "SELECT service_id FROM accountant_services WHERE accountant_id = $1",
        [target.user.id],
      );
      expect(current.rows.map((row) => row.service_id)).toEqual(previous);
    },
  );
});

describe("the admin order search", () => {
  let h: Harness;
  let admin: SignedIn;
  let member: SignedIn;
  const as = (s: SignedIn) => ({ token: s.accessToken });
  const list = (s: SignedIn, kind: string, query = "") =>
    h.get<Envelope<Item[]>>(`/api/v1/admin/${kind}${query}`, as(s));
  const placeOrder = async (itemId: string, customer: SignedIn) => {
    const res = await h.post<Envelope<{ id: string }>>(
      "/api/v1/orders",
      { menu_item_id: itemId, quantity: 1 },
      as(customer),
    );
    expect(res.status).toBe(201);

    return res.body.data.id;
  };

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.signIn({ role: "admin" });
    member = await h.signIn();
  });
  afterAll(async () => {
    await h?.close();
  });

  it("finds orders by the item name they were placed with, by guest email and by id, each once", async () => {
    const seller = await h.provider({ displayName: "Rename Kitchen" });
    const listingId = await h.listing(seller.providerId, {
      name: "Rename Kitchen listing",
      categoryId: await h.categoryId(),
      items: [{ name: "Quokka Curry", priceAmount: 700 }],
    });
    const { rows } = await h.db.sql.query<{ id: string }>("SELECT id FROM menu_items WHERE listing_id = $1", [
      listingId,
    ]);
    const itemId = rows[0]?.id ?? "";
    const before = await placeOrder(itemId, member);
    const renamed = await h.patch(`/api/v1/menu-items/${itemId}`, { name: "Wombat Stew" }, as(seller));
    expect(renamed.status).toBe(200);
    const after = await placeOrder(itemId, member);
    // A guest whose email holds the old name's word, ordering the renamed item: found by both.
    const guest = await h.post<Envelope<{ id: string }>>(
      "/api/v1/orders",
      { menu_item_id: itemId, quantity: 1, email: "quokka.fan@example.com", phone: "+1 555 0101" },
      { headers: { "idempotency-key": "admin-search-guest" } },
    );
    expect(guest.status).toBe(201);
    const ids = async (query: string) => {
      const res = await list(admin, "orders", query);
      expect(res.status, query).toBe(200);
      expect(res.body.meta?.total, query).toBe(res.body.data.length);

      return res.body.data.map((order) => order.id).sort();
    };
    // The old name finds the order placed before the rename (and the guest, by email); the new
    // name the orders placed after it; a guest matching by name and email is counted once.
    expect(await ids("?q=quokka")).toEqual([before, guest.body.data.id].sort());
    expect(await ids("?q=QUOKKA%20CURRY")).toEqual([before]);
    expect(await ids("?q=wombat")).toEqual([after, guest.body.data.id].sort());
    expect(await ids("?q=stew&status=pending")).toEqual([after, guest.body.data.id].sort());
    expect(await ids("?q=stew&status=completed")).toEqual([]);
    expect(await ids("?q=fan@example")).toEqual([guest.body.data.id]);
    expect(await ids(`?q=${before}`)).toEqual([before]);
    // Wildcards in q are literal.
    expect(await ids("?q=quokka%25")).toEqual([]);
  });
});
