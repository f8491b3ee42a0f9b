import {
  listedMenuItemDetailSchema,
  listingSearchItemSchema,
  ownListingSchema,
  publicListingDetailSchema,
  publicMenuItemSchema,
} from "@agora/contracts/marketplace";
import { listingPubliclyVisible } from "@agora/domain/marketplace/marketplace.policy";
import type { ListingVisibilityFacts } from "@agora/domain/marketplace/marketplace.types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";

type ErrorBody = { error: { code: string; details?: { path: string }[] } };
type ListingBody = {
  data: Record<string, unknown> & { id: string; status: string; menu_items: { id: string; name: string }[] };
};
type SearchBody = {
  data: { id: string; name: string; featured: boolean }[];
  meta: { limit: number; offset: number; total: number };
};

const DAY = 24 * 3600_000;

describe("listings and menu items", () => {
  let h: Harness;
  let owner: Awaited<ReturnType<Harness["provider"]>>;
  let stranger: Awaited<ReturnType<Harness["provider"]>>;
  let admin: SignedIn;

  beforeAll(async () => {
    h = await createHarness();
    owner = await h.provider({ displayName: "Owner Eats" });
    stranger = await h.provider({ displayName: "Stranger Foods" });
    admin = await h.signIn({ role: "admin" });
  });
  afterAll(async () => {
    await h?.close();
  });

  describe("POST /api/v1/listings", () => {
    it("creates a draft for the caller's own profile; ids it should not take are ignored", async () => {
      const categoryId = await h.categoryId();
      const res = await h.post<ListingBody>(
        "/api/v1/listings",
        {
          provider_id: owner.providerId,
          category_id: categoryId,
          name: "Noodle Bar",
          description: "Hand-pulled",
          status: "active",
          id: h.runtime.ids.next(),
        },
        { token: owner.accessToken },
      );
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        provider_id: owner.providerId,
        provider_name: "Owner Eats",
        category_id: categoryId,
        name: "Noodle Bar",
        status: "draft",
        subscription_status: "inactive",
        subscription_expires_at: null,
        menu_items: [],
      });
      expect((await h.get(`/api/v1/listings/${res.body.data.id}`)).status).toBe(404);
    });

    it("answers 404 when provider_id is another's profile or the caller has none", async () => {
      const categoryId = await h.categoryId();
      const other = await h.post<ErrorBody>(
        "/api/v1/listings",
        { provider_id: stranger.providerId, category_id: categoryId, name: "Hijack" },
        { token: owner.accessToken },
      );
      expect(other.status).toBe(404);
      const member = await h.signIn();
      const none = await h.post(
        "/api/v1/listings",
        { provider_id: owner.providerId, category_id: categoryId, name: "X" },
        { token: member.accessToken },
      );
      expect(none.status).toBe(404);
      const { rows } = await h.db.sql.query("SELECT 1 FROM listings WHERE name = 'Hijack'");
      expect(rows).toHaveLength(0);
    });

    it("answers 422 for an unknown or inactive category and missing fields; 401 without a token", async () => {
      const categoryId = await h.categoryId(1);
      await h.db.sql.query("UPDATE categories SET active = false WHERE id = $1", [categoryId]);
      try {
        for (const body of [
          { provider_id: owner.providerId, category_id: categoryId, name: "X" },
          { provider_id: owner.providerId, category_id: h.runtime.ids.next(), name: "X" },
          { provider_id: owner.providerId, category_id: "not-a-uuid", name: "X" },
          { provider_id: owner.providerId, name: "X" },
          { provider_id: owner.providerId, category_id: await h.categoryId(), name: "" },
        ]) {
          const res = await h.post<ErrorBody>("/api/v1/listings", body, { token: owner.accessToken });
          expect(res.status, JSON.stringify(body)).toBe(422);
        }
      } finally {
        await h.db.sql.query("UPDATE categories SET active = true WHERE id = $1", [categoryId]);
      }
      expect(
        (
          await h.post("/api/v1/listings", {
            provider_id: owner.providerId,
            category_id: await h.categoryId(),
            name: "X",
          })
        ).status,
      ).toBe(401);
    });
  });

  describe("GET /api/v1/listings/{id}: public visibility", () => {
    it("shows a visible listing with its active menu items only", async () => {
      const id = await h.listing(owner.providerId, {
        name: "Visible Place",
        items: [
          { name: "Soup", priceAmount: 450, currency: "EUR" },
          { name: "Hidden dish", priceAmount: 1, active: false },
        ],
      });
      const res = await h.get<ListingBody>(`/api/v1/listings/${id}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id,
        provider_id: owner.providerId,
        provider_name: "Owner Eats",
        name: "Visible Place",
        featured: false,
        menu_items: [{ name: "Soup", price_amount: 450, currency: "EUR" }],
      });
      expect(res.body.data).not.toHaveProperty("status");
    });

    it("answers exactly the contract's fields, in its order, and nothing else (page, search, owner view)", async () => {
      // The database builds the public listing (publicListingJson) and the API passes it on as it
      // is: the keys of each answer are the document's, so no column reaches an answer unlisted.
      const id = await h.listing(owner.providerId, {
        name: "Keyed Lantern",
        items: [{ name: "Wick", priceAmount: 120 }],
      });
      const keys = (schema: { shape: object }) => Object.keys(schema.shape);
      type Keyed = { data: Record<string, unknown> & { menu_items: object[] } };
      const page = await h.get<Keyed>(`/api/v1/listings/${id}`);
      expect(Object.keys(page.body.data)).toEqual(keys(publicListingDetailSchema));
      expect(page.body.data.menu_items.map((item) => Object.keys(item))).toEqual([
        keys(listedMenuItemDetailSchema),
      ]);
      const search = await h.get<{ data: Keyed["data"][] }>("/api/v1/listings?q=keyed%20lantern");
      expect(search.body.data.map((item) => Object.keys(item))).toEqual([keys(listingSearchItemSchema)]);
      expect(search.body.data[0]?.menu_items.map((item) => Object.keys(item))).toEqual([
        keys(publicMenuItemSchema),
      ]);
      const own = await h.patch<Keyed>(`/api/v1/listings/${id}`, {}, { token: owner.accessToken });
      expect(Object.keys(own.body.data)).toEqual(keys(ownListingSchema));
      expect(own.body.data.menu_items.map((item) => Object.keys(item))).toEqual([keys(publicMenuItemSchema)]);
    });

    it("hides the listing (404) when any one condition fails: status, subscription, provider approval", async () => {
      const pending = await h.provider({ approved: false });
      const cases = [
        await h.listing(owner.providerId, { status: "draft" }),
        await h.listing(owner.providerId, { status: "inactive" }),
        await h.listing(owner.providerId, { status: "suspended" }),
        await h.listing(owner.providerId, { subscription: "inactive" }),
        await h.listing(owner.providerId, { expiresAt: new Date(h.clock.now().getTime() - 1000) }),
        await h.listing(pending.providerId),
      ];
      for (const id of cases) {
        expect((await h.get(`/api/v1/listings/${id}`)).status).toBe(404);
        expect(
          (await h.get<SearchBody>("/api/v1/listings?limit=100")).body.data.map((l) => l.id),
        ).not.toContain(id);
      }
      for (const id of [h.runtime.ids.next(), "not-a-uuid"]) {
        const res = await h.get<ErrorBody>(`/api/v1/listings/${id}`);
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe("not_found");
      }
    });

    it("follows the owner: a suspended or deleted provider's listings are neither public nor orderable", async () => {
      const seller = await h.orderable({ displayName: "Soon Suspended" });
      const buyer = await h.signIn();
      const visible = async () => ({
        get: (await h.get(`/api/v1/listings/${seller.listingId}`)).status,
        search: (await h.get<SearchBody>("/api/v1/listings?q=soon%20suspended")).body.meta.total,
        contact: (await h.get(`/api/v1/listings/${seller.listingId}/contact`, { token: buyer.accessToken }))
          .status,
      });
      const order = () =>
        h.post<ErrorBody>(
          "/api/v1/orders",
          { menu_item_id: seller.itemId, quantity: 1 },
          { token: buyer.accessToken, headers: { "idempotency-key": h.runtime.ids.next() } },
        );
      expect(await visible()).toEqual({ get: 200, search: 1, contact: 200 });
      expect((await order()).status).toBe(201);

      const setStatus = (status: string) =>
        h.patch(
          `/api/v1/admin/users/${seller.seller.user.id}/status`,
          { status },
          { token: admin.accessToken },
        );
      expect((await setStatus("suspended")).status).toBe(200);
      expect(await visible()).toEqual({ get: 404, search: 0, contact: 404 });
      const refused = await order();
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe("item_unavailable");

      expect((await setStatus("active")).status).toBe(200);
      expect(await visible()).toEqual({ get: 200, search: 1, contact: 200 });

      const deleter = await h.openSession(seller.seller.user);
      expect((await h.delete("/api/v1/auth/me", { token: deleter.accessToken })).status).toBe(200);
      expect(await visible()).toEqual({ get: 404, search: 0, contact: 404 });
      expect((await order()).status).toBe(422);
    });

    it("hides a listing once its subscription expires, while its status stays active", async () => {
      const start = h.clock.now();
      const id = await h.listing(owner.providerId, { expiresAt: new Date(start.getTime() + 2 * DAY) });
      expect((await h.get(`/api/v1/listings/${id}`)).status).toBe(200);
      h.clock.advance(2 * DAY + 1000);
      try {
        expect((await h.get(`/api/v1/listings/${id}`)).status).toBe(404);
        expect(
          (await h.get<SearchBody>("/api/v1/listings?limit=100")).body.data.map((l) => l.id),
        ).not.toContain(id);
        const { rows } = await h.db.sql.query<{ status: string }>(
          "SELECT status FROM listings WHERE id = $1",
          [id],
        );
        expect(rows[0]?.status).toBe("active");
      } finally {
        // The rest of the file signs in with tokens issued at `start`.
        h.clock.set(start);
      }
    });
  });

  describe("PATCH and DELETE /api/v1/listings/{id}", () => {
    it("lets the owner change name, description and category; ids in the body are ignored", async () => {
      const id = await h.listing(owner.providerId, { name: "Before" });
      const categoryId = await h.categoryId(2);
      const res = await h.patch<ListingBody>(
        `/api/v1/listings/${id}`,
        {
          name: "After",
          description: "Now with more",
          category_id: categoryId,
          provider_id: stranger.providerId,
          id: h.runtime.ids.next(),
        },
        { token: owner.accessToken },
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id,
        name: "After",
        description: "Now with more",
        category_id: categoryId,
        provider_id: owner.providerId,
      });
      const found = await h.get<SearchBody>("/api/v1/listings?q=now%20with%20more");
      expect(found.body.data.map((l) => l.id)).toEqual([id]);
    });

    it("answers 404 to anyone but the owner, 422 for a bad category, 401 without a token", async () => {
      const id = await h.listing(owner.providerId, { name: "Mine" });
      expect(
        (await h.patch(`/api/v1/listings/${id}`, { name: "Stolen" }, { token: stranger.accessToken })).status,
      ).toBe(404);
      expect(
        (
          await h.patch(
            `/api/v1/listings/${id}`,
            { category_id: h.runtime.ids.next() },
            { token: owner.accessToken },
          )
        ).status,
      ).toBe(422);
      expect(
        (await h.patch(`/api/v1/listings/${id}`, { name: "" }, { token: owner.accessToken })).status,
      ).toBe(422);
      expect((await h.patch(`/api/v1/listings/${id}`, { name: "x" })).status).toBe(401);
      expect(
        (
          await h.patch(
            `/api/v1/listings/${h.runtime.ids.next()}`,
            { name: "x" },
            { token: owner.accessToken },
          )
        ).status,
      ).toBe(404);
      const { rows } = await h.db.sql.query<{ name: string }>("SELECT name FROM listings WHERE id = $1", [
        id,
      ]);
      expect(rows[0]?.name).toBe("Mine");
    });

    it("deactivates on delete: kept as inactive, gone from public view; 404 for others", async () => {
      const id = await h.listing(owner.providerId);
      expect((await h.delete(`/api/v1/listings/${id}`, { token: stranger.accessToken })).status).toBe(404);
      const res = await h.delete<ListingBody>(`/api/v1/listings/${id}`, { token: owner.accessToken });
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe("inactive");
      expect((await h.get(`/api/v1/listings/${id}`)).status).toBe(404);
      expect((await h.delete(`/api/v1/listings/${id}`)).status).toBe(401);
    });
  });

  describe("GET /api/v1/listings/{id}/contact", () => {
    it("gives signed-in users the owner's user id and display name; 401 anonymous; 404 when not public", async () => {
      const id = await h.listing(owner.providerId);
      const member = await h.signIn();
      const res = await h.get<{ data: unknown }>(`/api/v1/listings/${id}/contact`, {
        token: member.accessToken,
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ user_id: owner.user.id, display_name: "Owner Eats" });
      expect((await h.get(`/api/v1/listings/${id}/contact`)).status).toBe(401);
      const draft = await h.listing(owner.providerId, { status: "draft" });
      expect((await h.get(`/api/v1/listings/${draft}/contact`, { token: member.accessToken })).status).toBe(
        404,
      );
    });
  });

  describe("menu items", () => {
    it("adds an active item with the currency uppercased; others get 404", async () => {
      const id = await h.listing(owner.providerId);
      const res = await h.post<{ data: Record<string, unknown> }>(
        `/api/v1/listings/${id}/menu-items`,
        { name: "Dumplings", description: "Six", price_amount: 800, currency: "usd" },
        { token: owner.accessToken },
      );
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        listing_id: id,
        name: "Dumplings",
        price_amount: 800,
        currency: "USD",
        active: true,
      });
      expect(
        (
          await h.post(
            `/api/v1/listings/${id}/menu-items`,
            { name: "X", price_amount: 1, currency: "USD" },
            { token: stranger.accessToken },
          )
        ).status,
      ).toBe(404);
      expect(
        (await h.post(`/api/v1/listings/${id}/menu-items`, { name: "X", price_amount: 1, currency: "USD" }))
          .status,
      ).toBe(401);
    });

    it("answers 422 for a negative, fractional or unsafe price, a bad currency or no name", async () => {
      const id = await h.listing(owner.providerId);
      for (const body of [
        { name: "X", price_amount: -1, currency: "USD" },
        { name: "X", price_amount: 1.25, currency: "USD" },
        { name: "X", price_amount: 2 ** 53, currency: "USD" },
        { name: "X", price_amount: "100", currency: "USD" },
        { name: "X", price_amount: 1, currency: "US" },
        { name: "X", price_amount: 1, currency: "U5D" },
        { price_amount: 1, currency: "USD" },
      ]) {
        expect(
          (await h.post(`/api/v1/listings/${id}/menu-items`, body, { token: owner.accessToken })).status,
          JSON.stringify(body),
        ).toBe(422);
      }
      expect(
        (
          await h.post(
            `/api/v1/listings/${id}/menu-items`,
            { name: "Free", price_amount: 0, currency: "USD" },
            { token: owner.accessToken },
          )
        ).status,
      ).toBe(201);
    });

    it("patches an item (deactivating hides it from the listing); others get 404", async () => {
      const id = await h.listing(owner.providerId, { items: [{ name: "Tea", priceAmount: 200 }] });
      const [item] = (await h.get<ListingBody>(`/api/v1/listings/${id}`)).body.data.menu_items;
      const res = await h.patch<{ data: Record<string, unknown> }>(
        `/api/v1/menu-items/${item?.id}`,
        { price_amount: 250, currency: "gbp", active: false },
        { token: owner.accessToken },
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ price_amount: 250, currency: "GBP", active: false });
      expect((await h.get<ListingBody>(`/api/v1/listings/${id}`)).body.data.menu_items).toEqual([]);
      expect(
        (await h.patch(`/api/v1/menu-items/${item?.id}`, { active: true }, { token: stranger.accessToken }))
          .status,
      ).toBe(404);
      expect(
        (
          await h.patch(
            `/api/v1/menu-items/${h.runtime.ids.next()}`,
            { active: true },
            { token: owner.accessToken },
          )
        ).status,
      ).toBe(404);
      expect(
        (await h.patch(`/api/v1/menu-items/${item?.id}`, { price_amount: -5 }, { token: owner.accessToken }))
          .status,
      ).toBe(422);
    });

    it("deletes with the listing_id of the caller's listing: 422 without it, 404 for a wrong one, gone after", async () => {
      const id = await h.listing(owner.providerId, { items: [{ name: "Cake", priceAmount: 300 }] });
      const other = await h.listing(owner.providerId);
      const [item] = (await h.get<ListingBody>(`/api/v1/listings/${id}`)).body.data.menu_items;
      const missing = await h.delete<ErrorBody>(`/api/v1/menu-items/${item?.id}`, {
        token: owner.accessToken,
      });
      expect(missing.status).toBe(422);
      expect(missing.body.error.details?.[0]?.path).toBe("listing_id");
      expect(
        (await h.delete(`/api/v1/menu-items/${item?.id}?listing_id=${other}`, { token: owner.accessToken }))
          .status,
      ).toBe(404);
      expect(
        (await h.delete(`/api/v1/menu-items/${item?.id}?listing_id=${id}`, { token: stranger.accessToken }))
          .status,
      ).toBe(404);
      const res = await h.delete(`/api/v1/menu-items/${item?.id}?listing_id=${id}`, {
        token: owner.accessToken,
      });
      expect(res.status).toBe(200);
      expect((await h.get<ListingBody>(`/api/v1/listings/${id}`)).body.data.menu_items).toEqual([]);
      expect(
        (await h.patch(`/api/v1/menu-items/${item?.id}`, { active: true }, { token: owner.accessToken }))
          .status,
      ).toBe(404);
    });
  });

  describe("PATCH /api/v1/admin/listings/{id}/status", () => {
    it("suspends and reactivates a listing, audited; 422 for another status; 403 for non-admins", async () => {
      const id = await h.listing(owner.providerId);
      const res = await h.patch<ListingBody>(
        `/api/v1/admin/listings/${id}/status`,
        { status: "suspended" },
        { token: admin.accessToken },
      );
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe("suspended");
      expect((await h.get(`/api/v1/listings/${id}`)).status).toBe(404);
      expect(
        (
          await h.patch(
            `/api/v1/admin/listings/${id}/status`,
            { status: "active" },
            { token: admin.accessToken },
          )
        ).status,
      ).toBe(200);
      expect((await h.get(`/api/v1/listings/${id}`)).status).toBe(200);
      for (const status of ["draft", "deleted"]) {
        expect(
          (await h.patch(`/api/v1/admin/listings/${id}/status`, { status }, { token: admin.accessToken }))
            .status,
        ).toBe(422);
      }
      expect(
        (
          await h.patch(
            `/api/v1/admin/listings/${id}/status`,
            { status: "inactive" },
            { token: owner.accessToken },
          )
        ).status,
      ).toBe(403);
      expect(
        (
          await h.patch(
            `/api/v1/admin/listings/${h.runtime.ids.next()}/status`,
            { status: "inactive" },
            { token: admin.accessToken },
          )
        ).status,
      ).toBe(404);
      const { rows } = await h.db.sql.query<{ before: unknown; after: unknown }>(
        "SELECT before, after FROM audit_events WHERE target_id = $1 ORDER BY created_at, id",
        [id],
      );
      expect(rows).toEqual([
        { before: { status: "active" }, after: { status: "suspended" } },
        { before: { status: "suspended" }, after: { status: "active" } },
      ]);
    });
  });
});

describe("listing search", () => {
  let h: Harness;
  let ids: Record<string, string>;

  beforeAll(async () => {
    h = await createHarness();
    const kitchen = await h.provider({ displayName: "Marigold Kitchen" });
    const garage = await h.provider({ displayName: "Garage Fixers" });
    const base = h.clock.now().getTime();
    const at = (minutes: number) => new Date(base - minutes * 60_000);
    ids = {
      pizza: await h.listing(kitchen.providerId, {
        name: "Pizza Oven",
        description: "Wood fired",
        updatedAt: at(10),
        items: [{ name: "Margherita", priceAmount: 900 }],
      }),
      pasta: await h.listing(kitchen.providerId, {
        name: "Pasta Corner",
        description: "Fresh pasta daily",
        updatedAt: at(5),
      }),
      featured: await h.listing(garage.providerId, {
        name: "Brake Repair",
        description: "Quick service",
        updatedAt: at(60),
        featuredUntil: new Date(base + 24 * 3600_000),
      }),
      oldFeature: await h.listing(garage.providerId, {
        name: "Tyre Change",
        description: "Was featured once",
        updatedAt: at(1),
        featuredUntil: new Date(base - 1000),
      }),
      other: await h.listing(garage.providerId, {
        name: "Oil 100%_Percent",
        description: "Literal symbols",
        updatedAt: at(30),
        categoryId: await h.categoryId(3),
      }),
    };
  });
  afterAll(async () => {
    await h?.close();
  });

  const search = (query: string) => h.get<SearchBody & ErrorBody>(`/api/v1/listings${query}`);

  it("orders featured first, then most recently updated, with limit/offset/total in meta", async () => {
    const res = await search("");
    expect(res.status).toBe(200);
    expect(res.body.data.map((l) => l.id)).toEqual([
      ids.featured,
      ids.oldFeature,
      ids.pasta,
      ids.pizza,
      ids.other,
    ]);
    expect(res.body.data[0]?.featured).toBe(true);
    expect(res.body.data[1]?.featured).toBe(false);
    expect(res.body.meta).toEqual({ limit: 20, offset: 0, total: 5 });
    const page = await search("?limit=2&offset=1");
    expect(page.body.data.map((l) => l.id)).toEqual([ids.oldFeature, ids.pasta]);
    expect(page.body.meta).toEqual({ limit: 2, offset: 1, total: 5 });
    const beyond = await search("?offset=50");
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta.total).toBe(5);
  });

  it("keeps browse totals exact through every change of public visibility (counters kept by the database)", async () => {
    const now = h.clock.now();
    const category = await h.categoryId(2);
    // The truth: every listing row judged at `now` by the domain's statement of the visibility rule.
    const truth = async (categoryId?: string) => {
      const { rows } = await h.db.sql.query<ListingVisibilityFacts>(
        `SELECT status, subscription_status AS "subscriptionStatus", subscription_expires_at AS "subscriptionExpiresAt",
                provider_approved AS "providerApproved", owner_active AS "ownerActive", held_at AS "heldAt"
           FROM listings WHERE $1::uuid IS NULL OR category_id = $1::uuid`,
        [categoryId ?? null],
      );

      return rows.filter((row) => listingPubliclyVisible(row, now)).length;
    };
    const expectExact = async (step: string) => {
      const all = (await search("")).body.meta.total;
      const inCategory = (await search(`?category_id=${category}`)).body.meta.total;
      expect({ step, all, inCategory }).toEqual({
        step,
        all: await truth(),
        inCategory: await truth(category),
      });
    };
    await expectExact("as seeded");
    const p = await h.provider({ displayName: "Counting Shop" });
    const at = (ms: number) => new Date(now.getTime() + ms);
    const later = await h.listing(p.providerId, { categoryId: category, expiresAt: at(3600_000) });
    const soon = await h.listing(p.providerId, { categoryId: category, expiresAt: at(60_000) });
    await h.listing(p.providerId, { categoryId: category, expiresAt: at(-1000) });
    await h.listing(p.providerId, { categoryId: category, expiresAt: at(-2 * 24 * 3600_000) });
    await h.listing(p.providerId, { categoryId: category, expiresAt: null, subscription: "inactive" });
    await h.listing(p.providerId, { categoryId: category, status: "draft" });
    await expectExact("inserted, public or not");
    const update = (sql: string, ids: string[]) => h.db.sql.query(sql, [ids]);
    await update("UPDATE listings SET status = 'inactive' WHERE id = ANY($1::uuid[])", [later]);
    await expectExact("deactivated");
    await update(
      "UPDATE listings SET status = 'active', category_id = (SELECT id FROM categories WHERE id <> category_id LIMIT 1) WHERE id = ANY($1::uuid[])",
      [later],
    );
    await expectExact("reactivated in another category");
    await update(
      "UPDATE listings SET subscription_expires_at = subscription_expires_at + interval '40 days' WHERE id = ANY($1::uuid[])",
      [later, soon],
    );
    await expectExact("renewed");
    await update("UPDATE listings SET held_at = now() WHERE id = ANY($1::uuid[])", [soon]);
    await expectExact("held by a content filter");
    await update("UPDATE listings SET held_at = NULL WHERE id = ANY($1::uuid[])", [soon]);
    await expectExact("released");
    await update(
      "UPDATE listings SET owner_active = false WHERE provider_id = (SELECT provider_id FROM listings WHERE id = ANY($1::uuid[]) LIMIT 1)",
      [soon],
    );
    await expectExact("owner suspended");
    await update(
      "UPDATE listings SET owner_active = true WHERE provider_id = (SELECT provider_id FROM listings WHERE id = ANY($1::uuid[]) LIMIT 1)",
      [soon],
    );
    await update("UPDATE listings SET updated_at = now() WHERE id = ANY($1::uuid[])", [soon]);
    await expectExact("owner back, touched");
    await update(
      "DELETE FROM menu_items WHERE listing_id IN (SELECT id FROM listings WHERE provider_id = (SELECT provider_id FROM listings WHERE id = ANY($1::uuid[]) LIMIT 1))",
      [soon],
    );
    await update(
      "DELETE FROM listings WHERE provider_id = (SELECT provider_id FROM listings WHERE id = ANY($1::uuid[]) LIMIT 1)",
      [soon],
    );
    await expectExact("deleted");
  });

  it("breaks ties on the same update time by id, deterministically", async () => {
    const p = await h.provider({ displayName: "Twin Shops" });
    const when = new Date(h.clock.now().getTime() - 7 * 60_000);
    const a = await h.listing(p.providerId, { name: "Twin A", updatedAt: when });
    const b = await h.listing(p.providerId, { name: "Twin B", updatedAt: when });
    const res = await search("?q=twin");
    expect(res.body.data.map((l) => l.id)).toEqual([a, b].sort().reverse());
    await h.db.sql.query("UPDATE listings SET status = 'inactive' WHERE id IN ($1, $2)", [a, b]);
  });

  it("matches q in the name, the description or the provider name, case-insensitively", async () => {
    expect((await search("?q=PIZZA")).body.data.map((l) => l.id)).toEqual([ids.pizza]);
    expect((await search("?q=fresh%20pasta")).body.data.map((l) => l.id)).toEqual([ids.pasta]);
    expect((await search("?q=marigold")).body.data.map((l) => l.id).sort()).toEqual(
      [ids.pizza, ids.pasta].sort(),
    );
    expect((await search("?q=nothing-like-this")).body.meta.total).toBe(0);
  });

  it("treats % and _ in q as plain characters", async () => {
    expect((await search("?q=100%25_")).body.data.map((l) => l.id)).toEqual([ids.other]);
    expect((await search("?q=0%25_")).body.data.map((l) => l.id)).toEqual([ids.other]);
  });

  it("filters by category, combined with q", async () => {
    const category = await h.categoryId(3);
    expect((await search(`?category_id=${category}`)).body.data.map((l) => l.id)).toEqual([ids.other]);
    expect((await search(`?category_id=${category}&q=pizza`)).body.meta.total).toBe(0);
    expect((await search(`?category_id=${h.runtime.ids.next()}`)).body.meta.total).toBe(0);
  });

  it("returns each listing's active menu items", async () => {
    const res = await search("?q=pizza");
    expect(res.body.data[0]).toMatchObject({
      provider_name: "Marigold Kitchen",
      category_name: expect.any(String),
      menu_items: [{ name: "Margherita", price_amount: 900, currency: "USD" }],
    });
  });

  it("answers 400 invalid_pagination for non-integer limit or offset", async () => {
    for (const query of ["?limit=abc", "?limit=1.5", "?offset=x", "?offset=2e3"]) {
      const res = await search(query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe("invalid_pagination");
    }
  });

  it("answers 422 for a q of 1 or 2 characters (too short for the index); an empty or blank q browses", async () => {
    for (const query of ["?q=p", "?q=pi", "?q=%20pi%20", "?q=%25"]) {
      const res = await search(query);
      expect(res.status, query).toBe(422);
      expect(res.body.error).toMatchObject({ code: "validation_failed", details: [{ path: "q" }] });
    }
    expect((await search("?q=piz")).body.data.map((l) => l.id)).toEqual([ids.pizza]);
    for (const query of ["?q=", "?q=%20%20"]) {
      const res = await search(query);
      expect(res.status, query).toBe(200);
      expect(res.body.meta.total).toBe(5);
    }
  });

  it("answers 422 for out-of-range pagination, an overlong q or category_id", async () => {
    for (const query of [
      "?limit=0",
      "?limit=101",
      "?offset=-1",
      `?q=${"x".repeat(121)}`,
      `?category_id=${"c".repeat(65)}`,
    ]) {
      const res = await search(query);
      expect(res.status, query).toBe(422);
      expect(res.body.error.code).toBe("validation_failed");
    }
    expect((await search(`?q=${"x".repeat(120)}&limit=100`)).status).toBe(200);
  });
});

describe("listing page cache: a repeated page is served again only while it is still the answer", () => {
  let h: Harness;
  let provider: Awaited<ReturnType<Harness["provider"]>>;
  let categoryId: string;

  type PageBody = {
    data: {
      id: string;
      name: string;
      provider_name: string;
      category_name: string;
      featured: boolean;
      menu_items: { name: string; price_amount: number }[];
    }[];
    meta: { total: number };
  };

  beforeAll(async () => {
    h = await createHarness();
    provider = await h.provider({ displayName: "Saffron House" });
    categoryId = await h.categoryId(4);
  });
  afterAll(async () => {
    await h?.close();
  });

  const pages = async (q: string) => {
    const search = await h.get<PageBody>(`/api/v1/listings?q=${q}`);
    const browse = await h.get<PageBody>(`/api/v1/listings?category_id=${categoryId}&limit=100`);
    expect([search.status, browse.status]).toEqual([200, 200]);

    return { search: search.body, browse: browse.body };
  };

  it("serves the cached page until a committed change to any catalog table moves the stamp", async () => {
    const id = await h.listing(provider.providerId, {
      name: "Quince Stall",
      categoryId,
      items: [{ name: "Tea", priceAmount: 300 }],
    });
    const first = await pages("quince");
    expect(first.search.data.map((l) => l.name)).toEqual(["Quince Stall"]);
    expect(first.browse.data.find((l) => l.id === id)?.name).toBe("Quince Stall");

    // A write that does not move the stamp (the trigger's once-per-transaction mark set first):
    // both pages are served from the cache, so they still show the old name.
    await h.db.sql.transaction(async (tx) => {
      await tx.query("SELECT set_config('agora.catalog_changed', 'on', true)");
      await tx.query("UPDATE listings SET name = 'Quince Unseen' WHERE id = $1", [id]);
    });
    const cached = await pages("quince");
    expect(cached.search.data.map((l) => l.name)).toEqual(["Quince Stall"]);
    expect(cached.browse.data.find((l) => l.id === id)?.name).toBe("Quince Stall");

    // Every table a public page shows, written directly (no API call): the next read sees it.
    const changes: [string, unknown[], (page: PageBody) => unknown, unknown][] = [
      [
        "UPDATE listings SET name = 'Quince Stand' WHERE id = $1",
        [id],
        (p) => p.data[0]?.name,
        "Quince Stand",
      ],
      [
        "UPDATE menu_items SET price_amount = 450 WHERE listing_id = $1",
        [id],
        (p) => p.data[0]?.menu_items[0]?.price_amount,
        450,
      ],
      [
        "UPDATE provider_profiles SET display_name = 'Quince Brothers' WHERE id = $1",
        [provider.providerId],
        (p) => p.data[0]?.provider_name,
        "Quince Brothers",
      ],
      [
        "UPDATE categories SET name = 'Quince Things' WHERE id = $1",
        [categoryId],
        (p) => p.data[0]?.category_name,
        "Quince Things",
      ],
    ];
    for (const [statement, values, shown, expected] of changes) {
      await h.db.sql.query(statement, values);
      const after = await pages("quince");
      expect(shown(after.search)).toEqual(expected);
      expect(shown({ ...after.browse, data: after.browse.data.filter((l) => l.id === id) })).toEqual(
        expected,
      );
    }
  });

  it("counts its hits and misses and the pages it holds in /metrics", async () => {
    const series = async () => {
      const text = (await h.get("/metrics")).text;
      const value = (name: string) =>
        Number(
          text
            .split("\n")
            .find((line) => line.startsWith(`${name} `))
            ?.slice(name.length + 1),
        );

      return {
        hits: value('agora_listing_cache_lookups_total{result="hit"}'),
        misses: value('agora_listing_cache_lookups_total{result="miss"}'),
        pages: value("agora_listing_cache_pages"),
      };
    };
    const before = await series();
    const term = `rowan${h.runtime.ids.next().slice(-6)}`;
    await h.get(`/api/v1/listings?q=${term}`);
    await h.get(`/api/v1/listings?q=${term}`);
    const after = await series();
    expect(after.hits - before.hits).toBe(1);
    expect(after.misses - before.misses).toBe(1);
    expect(after.pages - before.pages).toBe(1);
  });

  it("does not serve a page past the moment time alone changes it (a featured end, an expiry)", async () => {
    const start = h.clock.now();
    const id = await h.listing(provider.providerId, {
      name: "Medlar Cart",
      categoryId,
      featuredUntil: new Date(start.getTime() + 3600_000),
      expiresAt: new Date(start.getTime() + 2 * 3600_000),
    });
    try {
      const featured = await pages("medlar");
      expect(featured.search.data.map((l) => [l.id, l.featured])).toEqual([[id, true]]);
      expect(featured.browse.data[0]).toMatchObject({ id, featured: true });
      const browseTotal = featured.browse.meta.total;

      h.clock.advance(3600_000);
      const ended = await pages("medlar");
      expect(ended.search.data.map((l) => [l.id, l.featured])).toEqual([[id, false]]);
      expect(ended.browse.data.find((l) => l.id === id)?.featured).toBe(false);

      h.clock.advance(3600_000);
      const expired = await pages("medlar");
      expect(expired.search).toMatchObject({ data: [], meta: { total: 0 } });
      expect(expired.browse.data.map((l) => l.id)).not.toContain(id);
      expect(expired.browse.meta.total).toBe(browseTotal - 1);
    } finally {
      h.clock.set(start);
    }
  });
});
