import type { ErrorEnvelope } from "@agora/contracts/envelope";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";

type ErrorBody = Pick<ErrorEnvelope, "error">;
type Listed = { data: { id: string }[] };

/**
 * docs/safety.md, "Demoted providers": setting a provider's role to member withdraws its approval
 * in the same transaction; its listings leave public reads and every provider path answers 403.
 */
describe("a provider demoted to member", () => {
  let h: Harness;
  let admin: SignedIn;
  let customer: SignedIn;

  beforeAll(async () => {
    h = await createHarness({
      config: { listingPlan: { priceAmount: 990, currency: "USD", durationDays: 30 } },
    });
    admin = await h.signIn({ role: "admin" });
    customer = await h.signIn();
  });
  afterAll(async () => {
    await h?.close();
  });

  const setRole = (userId: string, role: string) =>
    h.patch(`/api/v1/admin/users/${userId}/role`, { role }, { token: admin.accessToken });

  /** A public listing with one item, an order on it and that order's submitted payment. */
  const shopWithOrder = async (name: string) => {
    const shop = await h.orderable({ displayName: name });
    const order = await h.post<{ data: { id: string; version: number } }>(
      "/api/v1/orders",
      { menu_item_id: shop.itemId, quantity: 1 },
      { token: customer.accessToken },
    );
    const payment = await h.post<{ data: { id: string; version: number } }>(
      `/api/v1/orders/${order.body.data.id}/payments`,
      { method: "walletone_qr" },
      { token: customer.accessToken, headers: { "idempotency-key": `pay-${shop.listingId}` } },
    );
    await h.post(
      `/api/v1/payments/${payment.body.data.id}/submit`,
      { method: "walletone_qr", version: payment.body.data.version },
      { token: customer.accessToken },
    );

    return { ...shop, orderId: order.body.data.id, paymentId: payment.body.data.id };
  };

  /** Every provider path, as the owner of `shop` would call it; each answers its status. */
  const providerPaths = async (shop: Awaited<ReturnType<typeof shopWithOrder>>) => {
    const token = shop.seller.accessToken;
    const order = await h.get<{ data: { version: number } }>(`/api/v1/orders/${shop.orderId}`, {
      token: customer.accessToken,
    });

    return {
      profile: await h.patch<ErrorBody>("/api/v1/providers/me", { bio: "still here" }, { token }),
      dashboard: await h.get<ErrorBody>("/api/v1/providers/me/dashboard", { token }),
      sale: await h.post<ErrorBody>(
        "/api/v1/providers/me/sales",
        { amount: 100, currency: "USD", description: "cash" },
        { token },
      ),
      createListing: await h.post<ErrorBody>(
        "/api/v1/listings",
        { provider_id: shop.seller.providerId, category_id: await h.categoryId(), name: "Another" },
        { token },
      ),
      updateListing: await h.patch<ErrorBody>(
        `/api/v1/listings/${shop.listingId}`,
        { name: "Renamed" },
        { token },
      ),
      addItem: await h.post<ErrorBody>(
        `/api/v1/listings/${shop.listingId}/menu-items`,
        { name: "Tea", price_amount: 100, currency: "USD" },
        { token },
      ),
      updateItem: await h.patch<ErrorBody>(
        `/api/v1/menu-items/${shop.itemId}`,
        { price_amount: 1 },
        { token },
      ),
      subscribe: await h.post<ErrorBody>(
        `/api/v1/listings/${shop.listingId}/subscription-payments`,
        { method: "walletone_qr" },
        { token, headers: { "idempotency-key": `sub-${shop.listingId}` } },
      ),
      moveOrder: await h.post<ErrorBody>(
        `/api/v1/orders/${shop.orderId}/transition`,
        { status: "confirmed", version: order.body.data.version },
        { token },
      ),
      confirmPayment: await h.post<ErrorBody>(`/api/v1/payments/${shop.paymentId}/confirm`, undefined, {
        token,
      }),
      deleteItem: await h.request<ErrorBody>(
        "DELETE",
        `/api/v1/menu-items/${shop.itemId}?listing_id=${shop.listingId}`,
        { token },
      ),
      deleteListing: await h.request<ErrorBody>("DELETE", `/api/v1/listings/${shop.listingId}`, { token }),
    };
  };

  const searchIds = async (q: string) =>
    (await h.get<Listed>(`/api/v1/listings?q=${encodeURIComponent(q)}`)).body.data.map((l) => l.id);

  it("loses every provider path (403) and its listings leave search, reads and ordering on the next request", async () => {
    const shop = await shopWithOrder("Demoted Diner");
    expect(await searchIds("demoted diner")).toEqual([shop.listingId]);

    expect((await setRole(shop.seller.user.id, "member")).status).toBe(200);

    expect(await searchIds("demoted diner")).toEqual([]);
    expect((await h.get(`/api/v1/listings/${shop.listingId}`)).status).toBe(404);
    const order = await h.post<ErrorBody>(
      "/api/v1/orders",
      { menu_item_id: shop.itemId, quantity: 1 },
      { token: customer.accessToken },
    );
    expect(order.status).toBe(422);
    const me = await h.get<{ data: { role: string } }>("/api/v1/auth/me", { token: shop.seller.accessToken });
    expect(me.body.data.role).toBe("member");

    const answers = await providerPaths(shop);
    for (const [path, res] of Object.entries(answers)) {
      expect({ path, status: res.status, code: res.body.error?.code }).toEqual({
        path,
        status: 403,
        code: "forbidden",
      });
    }
    // Nothing changed: the order and the payment still wait, the listing and its item are as they were.
    const { rows } = await h.db.sql.query<{ status: string; payment_status: string }>(
      "SELECT status, payment_status FROM orders WHERE id = $1",
      [shop.orderId],
    );
    expect(rows[0]).toEqual({ status: "pending", payment_status: "payment_submitted" });
    const listing = await h.db.sql.query<{ name: string; status: string; provider_approved: boolean }>(
      "SELECT name, status, provider_approved FROM listings WHERE id = $1",
      [shop.listingId],
    );
    expect(listing.rows[0]).toEqual({
      name: expect.stringMatching(/^Listing /),
      status: "active",
      provider_approved: false,
    });
    const profile = await h.db.sql.query<{ approval_status: string }>(
      "SELECT approval_status FROM provider_profiles WHERE id = $1",
      [shop.seller.providerId],
    );
    expect(profile.rows[0]?.approval_status).toBe("withdrawn");
    const audit = await h.db.sql.query<{ details: Record<string, unknown> }>(
      "SELECT details FROM audit_events WHERE action = 'user.role_changed' AND target_id = $1",
      [shop.seller.user.id],
    );
    expect(audit.rows[0]?.details).toMatchObject({ provider_approval_withdrawn: shop.seller.providerId });
  });

  it("a role set back to provider alone restores nothing; a new approval restores the listing and the paths", async () => {
    const shop = await shopWithOrder("Returning Bistro");
    await setRole(shop.seller.user.id, "member");
    await setRole(shop.seller.user.id, "provider");
    expect(await searchIds("returning bistro")).toEqual([]);
    expect((await h.get("/api/v1/providers/me/dashboard", { token: shop.seller.accessToken })).status).toBe(
      403,
    );

    const approved = await h.post<{ data: { approval_status: string } }>(
      `/api/v1/admin/providers/${shop.seller.providerId}/approve`,
      undefined,
      { token: admin.accessToken },
    );
    expect(approved.status).toBe(200);
    expect(approved.body.data.approval_status).toBe("approved");
    expect(await searchIds("returning bistro")).toEqual([shop.listingId]);
    const answers = await providerPaths(shop);
    expect(answers.dashboard.status).toBe(200);
    expect(answers.moveOrder.status).toBe(200);
    expect(answers.confirmPayment.status).toBe(200);
    expect(answers.updateListing.status).toBe(200);
    expect(answers.deleteListing.status).toBe(200);
  });

  it("an approval after a demotion promotes the member again; admins list withdrawn profiles by status", async () => {
    const shop = await shopWithOrder("Listed Withdrawn");
    await setRole(shop.seller.user.id, "member");
    const listed = await h.get<{ data: { id: string; approval_status: string }[] }>(
      "/api/v1/admin/providers?status=withdrawn&limit=100",
      { token: admin.accessToken },
    );
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((p) => p.id)).toContain(shop.seller.providerId);
    await h.post(`/api/v1/admin/providers/${shop.seller.providerId}/approve`, undefined, {
      token: admin.accessToken,
    });
    const me = await h.get<{ data: { role: string } }>("/api/v1/auth/me", { token: shop.seller.accessToken });
    expect(me.body.data.role).toBe("provider");
  });

  it("a pending applicant keeps preparing drafts; other role changes (to accountant) withdraw nothing", async () => {
    const pending = await h.provider({ approved: false });
    await setRole(pending.user.id, "member");
    const draft = await h.post<{ data: { status: string } }>(
      "/api/v1/listings",
      { provider_id: pending.providerId, category_id: await h.categoryId(), name: "Before approval" },
      { token: pending.accessToken },
    );
    expect(draft.status).toBe(201);
    expect(draft.body.data.status).toBe("draft");

    const shop = await shopWithOrder("Staff Owned");
    await setRole(shop.seller.user.id, "accountant");
    expect(await searchIds("staff owned")).toEqual([shop.listingId]);
  });

  it("a demotion and an approval of the same provider in parallel leave role and approval consistent (PostgreSQL)", async () => {
    const shop = await shopWithOrder("Racing Kitchen");
    for (let round = 0; round < 4; round += 1) {
      await Promise.all([
        setRole(shop.seller.user.id, "member"),
        h.post(`/api/v1/admin/providers/${shop.seller.providerId}/approve`, undefined, {
          token: admin.accessToken,
        }),
      ]);
      const { rows } = await h.db.sql.query<{
        role: string;
        approval_status: string;
        provider_approved: boolean;
      }>(
        `SELECT u.role, p.approval_status, l.provider_approved
           FROM users u JOIN provider_profiles p ON p.user_id = u.id JOIN listings l ON l.provider_id = p.id
          WHERE u.id = $1`,
        [shop.seller.user.id],
      );
      const row = rows[0];
      // Either the demotion came last (member, withdrawn, hidden) or the approval did.
      expect([
        { role: "member", approval_status: "withdrawn", provider_approved: false },
        { role: "provider", approval_status: "approved", provider_approved: true },
      ]).toContainEqual(row);
    }
  });
});
