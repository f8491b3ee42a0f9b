import type { ProviderDto } from "@agora/contracts/marketplace";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";

type ErrorBody = { error: { code: string; details?: { path: string }[] } };
type Provider = ProviderDto;

describe("providers", () => {
  let h: Harness;
  let admin: SignedIn;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.signIn({ role: "admin" });
  });
  afterAll(async () => {
    await h?.close();
  });

  describe("GET /api/v1/catalog/services and /categories", () => {
    it("list the active entries only, categories of active services only", async () => {
      const services = await h.get<{ data: { id: string; name: string }[] }>("/api/v1/catalog/services");
      expect(services.status).toBe(200);
      expect(services.body.data.length).toBeGreaterThan(0);
      const categories = await h.get<{ data: { id: string; service_id: string; name: string }[] }>(
        "/api/v1/catalog/categories",
      );
      expect(categories.body.data.length).toBeGreaterThan(0);
      const [first] = services.body.data;
      await h.db.sql.query("UPDATE services SET active = false WHERE id = $1", [first?.id]);
      try {
        const after = await h.get<{ data: { id: string }[] }>("/api/v1/catalog/services");
        expect(after.body.data.map((s) => s.id)).not.toContain(first?.id);
        const afterCategories = await h.get<{ data: { service_id: string }[] }>("/api/v1/catalog/categories");
        expect(afterCategories.body.data.some((c) => c.service_id === first?.id)).toBe(false);
      } finally {
        await h.db.sql.query("UPDATE services SET active = true WHERE id = $1", [first?.id]);
      }
    });
  });

  describe("POST /api/v1/providers", () => {
    it("creates the caller's profile: owner from the token, pending, offline", async () => {
      const s = await h.signIn();
      const other = await h.createUser();
      const res = await h.post<{ data: Provider }>(
        "/api/v1/providers",
        {
          display_name: "  Ada's Kitchen ",
          bio: "Home cooking",
          phone: "+1 555 0100",
          user_id: other.id,
          approval_status: "approved",
        },
        { token: s.accessToken },
      );
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        user_id: s.user.id,
        display_name: "Ada's Kitchen",
        approval_status: "pending",
        availability: "offline",
        phone: "+1 555 0100",
      });
    });

    it("answers 422 for a second profile, a missing or overlong display name, or a bad phone", async () => {
      const s = await h.signIn();
      expect(
        (await h.post("/api/v1/providers", { display_name: "One" }, { token: s.accessToken })).status,
      ).toBe(201);
      const second = await h.post<ErrorBody>(
        "/api/v1/providers",
        { display_name: "Two" },
        { token: s.accessToken },
      );
      expect(second.status).toBe(422);
      const fresh = await h.signIn();
      for (const body of [
        {},
        { display_name: "" },
        { display_name: "   " },
        { display_name: "x".repeat(101) },
        { display_name: "A", phone: "call me" },
        { display_name: "A", bio: "b".repeat(2001) },
      ]) {
        expect(
          (await h.post("/api/v1/providers", body, { token: fresh.accessToken })).status,
          JSON.stringify(body),
        ).toBe(422);
      }
    });

    it("answers 401 without a token", async () => {
      expect((await h.post("/api/v1/providers", { display_name: "Nobody" })).status).toBe(401);
    });
  });

  describe("PATCH /api/v1/providers/me", () => {
    it("changes the caller's profile, and the new name is what search matches", async () => {
      const p = await h.provider({ displayName: "Old Name Bakery" });
      await h.listing(p.providerId, { name: "Sourdough" });
      const res = await h.patch<{ data: Provider }>(
        "/api/v1/providers/me",
        { display_name: "Zebra Bakehouse", phone: null },
        { token: p.accessToken },
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ display_name: "Zebra Bakehouse", phone: null });
      const found = await h.get<{ meta: { total: number } }>("/api/v1/listings?q=zebra");
      expect(found.body.meta.total).toBe(1);
      const old = await h.get<{ meta: { total: number } }>("/api/v1/listings?q=old%20name");
      expect(old.body.meta.total).toBe(0);
    });

    it("answers 404 without a profile, 422 for bad fields, 401 without a token", async () => {
      const s = await h.signIn();
      expect((await h.patch("/api/v1/providers/me", { bio: "x" }, { token: s.accessToken })).status).toBe(
        404,
      );
      const p = await h.provider();
      expect(
        (await h.patch("/api/v1/providers/me", { display_name: "" }, { token: p.accessToken })).status,
      ).toBe(422);
      expect((await h.patch("/api/v1/providers/me", { bio: "x" })).status).toBe(401);
    });
  });

  describe("POST /api/v1/admin/providers/{id}/approve", () => {
    it("approves: owner promoted to provider, paid drafts published, unpaid ones not, audited — in one go", async () => {
      const p = await h.provider({ approved: false });
      const paid = await h.listing(p.providerId, { status: "draft" });
      const unpaid = await h.listing(p.providerId, {
        status: "draft",
        subscription: "inactive",
        expiresAt: null,
      });
      expect((await h.get(`/api/v1/listings/${paid}`)).status).toBe(404);

      const res = await h.post<{ data: Provider }>(
        `/api/v1/admin/providers/${p.providerId}/approve`,
        undefined,
        {
          token: admin.accessToken,
        },
      );
      expect(res.status).toBe(200);
      expect(res.body.data.approval_status).toBe("approved");
      const me = await h.get<{ data: { role: string } }>("/api/v1/auth/me", { token: p.accessToken });
      expect(me.body.data.role).toBe("provider");
      expect((await h.get(`/api/v1/listings/${paid}`)).status).toBe(200);
      expect((await h.get(`/api/v1/listings/${unpaid}`)).status).toBe(404);
      const { rows } = await h.db.sql.query<{ action: string; details: { published_listings: string[] } }>(
        "SELECT action, details FROM audit_events WHERE target_id = $1",
        [p.providerId],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]?.action).toBe("provider.approved");
      expect(rows[0]?.details.published_listings).toEqual([paid]);
    });

    it("keeps a staff owner's role and changes nothing when approved twice", async () => {
      const p = await h.provider({ approved: false });
      await h.runtime.identity.repos.users.setRole(p.user.id, "accountant", h.clock.now());
      const path = `/api/v1/admin/providers/${p.providerId}/approve`;
      expect((await h.post(path, undefined, { token: admin.accessToken })).status).toBe(200);
      expect((await h.post(path, undefined, { token: admin.accessToken })).status).toBe(200);
      expect((await h.runtime.identity.repos.users.findById(p.user.id))?.role).toBe("accountant");
      const { rows } = await h.db.sql.query("SELECT 1 FROM audit_events WHERE target_id = $1", [
        p.providerId,
      ]);
      expect(rows).toHaveLength(1);
    });

    it("answers 403 to a non-admin, 404 for an unknown provider, 401 without a token", async () => {
      const p = await h.provider({ approved: false });
      const member = await h.signIn();
      expect(
        (
          await h.post(`/api/v1/admin/providers/${p.providerId}/approve`, undefined, {
            token: member.accessToken,
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await h.post(`/api/v1/admin/providers/${h.runtime.ids.next()}/approve`, undefined, {
            token: admin.accessToken,
          })
        ).status,
      ).toBe(404);
      expect(
        (await h.post("/api/v1/admin/providers/nope/approve", undefined, { token: admin.accessToken }))
          .status,
      ).toBe(404);
      expect((await h.post(`/api/v1/admin/providers/${p.providerId}/approve`)).status).toBe(401);
    });
  });

  describe("POST /api/v1/providers/me/sales and GET /api/v1/providers/me/dashboard", () => {
    it("records manual sales and shows them in the 30-day revenue beside listings by status", async () => {
      const p = await h.provider();
      await h.listing(p.providerId, { status: "active" });
      await h.listing(p.providerId, { status: "draft" });
      await h.listing(p.providerId, { status: "draft" });
      const sale = await h.post<{ data: { amount: number; currency: string; customer_label: string } }>(
        "/api/v1/providers/me/sales",
        { amount: 1500, currency: "eur", description: "Catering", customer_label: "Office party" },
        { token: p.accessToken },
      );
      expect(sale.status).toBe(201);
      expect(sale.body.data).toMatchObject({ amount: 1500, currency: "EUR", customer_label: "Office party" });
      await h.post(
        "/api/v1/providers/me/sales",
        { amount: 500, currency: "EUR", description: "Cake" },
        { token: p.accessToken },
      );
      const old = new Date(h.clock.now().getTime() - 31 * 24 * 3600_000).toISOString();
      await h.post(
        "/api/v1/providers/me/sales",
        { amount: 9999, currency: "EUR", description: "Long ago", occurred_at: old },
        { token: p.accessToken },
      );

      const res = await h.get<{ data: Record<string, unknown> }>("/api/v1/providers/me/dashboard", {
        token: p.accessToken,
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        provider_id: p.providerId,
        listings_by_status: { active: 1, draft: 2, inactive: 0, suspended: 0 },
        revenue_30d: [{ currency: "EUR", orders: 0, manual_sales: 2000, total: 2000 }],
        pending_payments: 0,
      });
    });

    it("answers 422 for a sale outside the Manual sale bounds", async () => {
      const p = await h.provider();
      const valid = { amount: 1, currency: "USD", description: "x" };
      for (const body of [
        { ...valid, amount: -1 },
        { ...valid, amount: 1.5 },
        { ...valid, currency: "US" },
        { ...valid, description: "" },
        { ...valid, description: "x".repeat(501) },
        { ...valid, customer_label: "x".repeat(121) },
        { ...valid, occurred_at: "yesterday" },
      ]) {
        expect(
          (await h.post("/api/v1/providers/me/sales", body, { token: p.accessToken })).status,
          JSON.stringify(body),
        ).toBe(422);
      }
      expect(
        (
          await h.post(
            "/api/v1/providers/me/sales",
            { ...valid, description: "x".repeat(500), customer_label: "y".repeat(120) },
            { token: p.accessToken },
          )
        ).status,
      ).toBe(201);
    });

    it("answers 403 to callers who are not providers (a pending profile too) and 401 without a token", async () => {
      const member = await h.signIn();
      const pending = await h.provider({ approved: false });
      for (const token of [member.accessToken, pending.accessToken]) {
        expect((await h.get<ErrorBody>("/api/v1/providers/me/dashboard", { token })).status).toBe(403);
        expect(
          (
            await h.post(
              "/api/v1/providers/me/sales",
              { amount: 1, currency: "USD", description: "x" },
              { token },
            )
          ).status,
        ).toBe(403);
      }
      expect((await h.get("/api/v1/providers/me/dashboard")).status).toBe(401);
    });
  });
});
