// The authorization matrix: every one of the API's method + path pairs (the specification's 88, and
// the routes added to them: test/spec-routes.ts), called by each kind of
// caller — no token, a member, the provider who owns the resources, another provider (the BOLA
// probe: a valid caller with someone else's id), an accountant with no assigned service, and an
// administrator — answers what its operation's security and description in the served OpenAPI
// document say. Each call is a valid request (a body that passes validation, a fresh resource where
// the call changes one), so the status is the authorization decision and not a side effect of bad
// input.
import { randomUUID } from "node:crypto";
import { deriveKey, KEY_PURPOSES } from "@agora/domain/common/derived-keys";
import { guestMailStopToken } from "@agora/domain/orders/guest-receipts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../test/harness";
import { type LocalS3, startLocalS3, uploadMedia } from "../test/s3";
import { specRoutes } from "../test/spec-routes";

const callers = ["anon", "member", "provider", "other", "accountant", "admin"] as const;
type Caller = (typeof callers)[number];
type Expected = Record<Caller, number>;
type Seller = SignedIn & { providerId: string; listingId: string; itemId: string };
/** The callers of one row: fresh accounts, so a row that deletes or suspends one leaves the next alone. */
type World = { member: SignedIn; provider: Seller; other: Seller; accountant: SignedIn; admin: SignedIn };
type Call = { path: string; body?: unknown; headers?: Record<string, string> };
type Row = { call: (w: World, caller: Caller) => Promise<Call> | Call; expect: Expected };

const video = {
  url: "wss://video.example.test",
  apiKey: "APIagora",
  apiSecret: "livekit-secret-that-is-long-enough-0123456789",
};

/** Every caller, with or without a token, gets `status`. */
const everyone = (status: number): Expected => ({
  anon: status,
  member: status,
  provider: status,
  other: status,
  accountant: status,
  admin: status,
});
/** Bearer routes open to any signed-in user. */
const signedIn = (status: number): Expected => ({ ...everyone(status), anon: 401 });
/** Routes for the given callers; other signed-in callers get `denied`. */
const only = (allowed: Caller[], status: number, denied = 403): Expected => ({
  ...everyone(denied),
  anon: 401,
  ...Object.fromEntries(allowed.map((caller) => [caller, status])),
});
const adminOnly = (status: number) => only(["admin"], status);

describe("the authorization matrix: every pair × 6 callers", () => {
  let h: Harness;
  let s3: LocalS3;
  let sequence = 0;
  const unique = (prefix: string) => {
    sequence += 1;

    return `${prefix}${sequence}x${randomUUID().slice(0, 6)}`;
  };

  beforeAll(async () => {
    s3 = await startLocalS3();
    h = await createHarness({
      config: {
        s3: s3.config,
        video,
        listingPlan: { priceAmount: 990, currency: "USD", durationDays: 30 },
      },
    });
  });
  afterAll(async () => {
    await h?.close();
    await s3?.close();
  });

  const seller = async (): Promise<Seller> => {
    const session = await h.provider();
    const listingId = await h.listing(session.providerId, {
      items: [{ name: "Dumplings", priceAmount: 1250 }],
    });
    const { rows } = await h.db.sql.query<{ id: string }>("SELECT id FROM menu_items WHERE listing_id = $1", [
      listingId,
    ]);

    return { ...session, listingId, itemId: rows[0]?.id ?? "" };
  };
  const world = async (): Promise<World> => ({
    member: await h.signIn(),
    provider: await seller(),
    other: await seller(),
    accountant: await h.signIn({ role: "accountant" }),
    admin: await h.signIn({ role: "admin" }),
  });
  const as = (who: SignedIn) => ({ token: who.accessToken });
  const created = async <T = { id: string }>(
    promise: Promise<{ status: number; body: unknown }>,
    what: string,
  ): Promise<T> => {
    const res = await promise;
    if (res.status !== 201 && res.status !== 200 && res.status !== 202) {
      throw new Error(`${what} answered ${res.status}: ${JSON.stringify(res.body)}`);
    }

    return (res.body as { data: T }).data;
  };

  // Resources of the row's world: the member is the customer, the provider the seller.
  const order = (w: World) =>
    created<{ id: string; version: number }>(
      h.post("/api/v1/orders", { menu_item_id: w.provider.itemId, quantity: 1 }, as(w.member)),
      "order",
    );
  const payment = async (w: World, submitted: boolean) => {
    const { id: orderId } = await order(w);
    const paid = await created<{ id: string; version: number }>(
      h.post(
        `/api/v1/orders/${orderId}/payments`,
        { method: "walletone_qr" },
        { ...as(w.member), headers: { "idempotency-key": unique("pay") } },
      ),
      "payment",
    );
    if (!submitted) {
      return paid;
    }

    return created<{ id: string; version: number }>(
      h.post(
        `/api/v1/payments/${paid.id}/submit`,
        { method: "walletone_qr", version: paid.version },
        as(w.member),
      ),
      "submit",
    );
  };
  const conversation = (w: World) =>
    created(
      h.post("/api/v1/chat/conversations", { other_user_id: w.provider.user.id }, as(w.member)),
      "conversation",
    );
  const moment = (w: World) =>
    created(h.post("/api/v1/community/moments", { body: "hello" }, as(w.member)), "moment");
  const comment = async (w: World) => {
    const { id } = await moment(w);

    return created(
      h.post(`/api/v1/community/moments/${id}/comments`, { body: "Nice" }, as(w.provider)),
      "comment",
    );
  };
  const report = async (w: World) => {
    const { id } = await moment(w);

    return created(
      h.post(`/api/v1/community/moments/${id}/report`, { reason: "spam" }, as(w.provider)),
      "report",
    );
  };
  let filterCount = 0;
  /** A fresh content filter rule (flag, on listings: it changes no other row's answer). */
  const filterRule = (w: World) => {
    filterCount += 1;

    return created(
      h.post(
        "/api/v1/admin/filters",
        { match: "word", value: `matrixrule${filterCount}`, action: "flag", contexts: ["listings"] },
        as(w.admin),
      ),
      "filter rule",
    );
  };
  const meeting = (w: World) =>
    created(
      h.post(
        "/api/v1/meetings",
        { title: "Stand-up", starts_at: new Date(h.clock.now().getTime() + 3600_000).toISOString() },
        as(w.member),
      ),
      "meeting",
    );
  /** An account registered through the API and still pending; its code is in the mail. */
  const pending = async () => {
    const email = `${unique("p")}@example.com`;
    const { user_id } = await created<{ user_id: string }>(
      h.post("/api/v1/auth/register", { username: unique("p"), email, password: "correct horse battery" }),
      "register",
    );

    return { email, userId: user_id };
  };
  const callerOf = (w: World, caller: Caller): SignedIn | undefined =>
    caller === "anon" ? undefined : w[caller];

  const rows: Record<string, Row> = {
    // System
    "GET /health": { call: () => ({ path: "/health" }), expect: everyone(200) },
    "GET /ready": { call: () => ({ path: "/ready" }), expect: everyone(200) },
    "GET /api/v1": { call: () => ({ path: "/api/v1" }), expect: everyone(200) },
    "GET /metrics": { call: () => ({ path: "/metrics" }), expect: everyone(200) },

    // Accounts and sessions: public routes work the same with or without a token.
    "POST /api/v1/auth/register": {
      call: () => ({
        path: "/api/v1/auth/register",
        body: {
          username: unique("r"),
          email: `${unique("r")}@example.com`,
          password: "correct horse battery",
        },
      }),
      expect: everyone(201),
    },
    "POST /api/v1/auth/verify-email": {
      call: async () => {
        const { email, userId } = await pending();

        return { path: "/api/v1/auth/verify-email", body: { user_id: userId, code: h.lastCode(email) } };
      },
      expect: everyone(200),
    },
    "POST /api/v1/auth/verification/resend": {
      call: async () => {
        const { email } = await pending();
        // Past the cooldown of the mail sent at registration.
        h.clock.advance(61_000);

        return { path: "/api/v1/auth/verification/resend", body: { email } };
      },
      expect: everyone(202),
    },
    "POST /api/v1/auth/login": {
      call: async () => {
        const user = await h.createUser();

        return { path: "/api/v1/auth/login", body: { email: user.email, password: user.password } };
      },
      expect: everyone(202),
    },
    "POST /api/v1/auth/login/verify": {
      call: async () => {
        const user = await h.createUser();
        await created(h.post("/api/v1/auth/login", { email: user.email, password: user.password }), "login");

        return {
          path: "/api/v1/auth/login/verify",
          body: { email: user.email, code: h.lastCode(user.email) },
        };
      },
      expect: everyone(200),
    },
    "POST /api/v1/auth/login/otp/resend": {
      call: async () => ({
        path: "/api/v1/auth/login/otp/resend",
        body: { email: (await h.createUser()).email },
      }),
      expect: everyone(202),
    },
    "POST /api/v1/auth/refresh": {
      call: async () => ({
        path: "/api/v1/auth/refresh",
        body: { refresh_token: (await h.signIn()).refreshToken },
      }),
      expect: everyone(200),
    },
    "POST /api/v1/auth/logout": {
      call: async () => ({
        path: "/api/v1/auth/logout",
        body: { refresh_token: (await h.signIn()).refreshToken },
      }),
      expect: everyone(200),
    },
    "GET /api/v1/auth/me": { call: () => ({ path: "/api/v1/auth/me" }), expect: signedIn(200) },
    "PATCH /api/v1/auth/me": {
      call: () => ({ path: "/api/v1/auth/me", body: { username: unique("u"), display_name: "Renamed" } }),
      expect: signedIn(200),
    },
    "DELETE /api/v1/auth/me": {
      call: async (_w, caller) => {
        // The last active administrator cannot delete their account (409 last_admin): keep another.
        if (caller === "admin") {
          await h.signIn({ role: "admin" });
        }

        return { path: "/api/v1/auth/me" };
      },
      expect: signedIn(200),
    },
    "GET /api/v1/auth/sessions": { call: () => ({ path: "/api/v1/auth/sessions" }), expect: signedIn(200) },
    "DELETE /api/v1/auth/sessions/{id}": {
      // Each caller ends another session of its own.
      call: async (w, caller) => {
        const who = callerOf(w, caller);
        const session = who ? await h.openSession(who.user) : undefined;

        return { path: `/api/v1/auth/sessions/${session?.sessionId ?? w.member.sessionId}` };
      },
      expect: signedIn(200),
    },
    "POST /api/v1/auth/sessions/revoke-others": {
      call: () => ({ path: "/api/v1/auth/sessions/revoke-others" }),
      expect: signedIn(200),
    },
    "POST /api/v1/auth/password": {
      // The same password again: the caller's next cells sign in as before.
      call: (w, caller) => {
        const password = callerOf(w, caller)?.user.password ?? "correct horse battery";

        return {
          path: "/api/v1/auth/password",
          body: { current_password: password, new_password: password },
        };
      },
      expect: signedIn(200),
    },
    "POST /api/v1/auth/me/export": {
      call: () => ({ path: "/api/v1/auth/me/export" }),
      expect: signedIn(202),
    },
    "GET /api/v1/auth/me/export": { call: () => ({ path: "/api/v1/auth/me/export" }), expect: signedIn(200) },
    // The mailed link's token is the credential: one that names no export is 404 for everyone.
    "GET /api/v1/auth/me/export/download": {
      call: () => ({ path: `/api/v1/auth/me/export/download?token=${unique("t")}` }),
      expect: everyone(404),
    },
    "POST /api/v1/auth/email": {
      call: (w, caller) => ({
        path: "/api/v1/auth/email",
        body: {
          new_email: `${unique("moved")}@example.com`,
          password: callerOf(w, caller)?.user.password ?? "correct horse battery",
        },
      }),
      expect: signedIn(202),
    },
    // No change is pending: the code is refused.
    "POST /api/v1/auth/email/verify": {
      call: () => ({ path: "/api/v1/auth/email/verify", body: { code: "000000" } }),
      expect: signedIn(422),
    },
    // The mailed link's token is the credential: one that names no change is 422 for everyone.
    "POST /api/v1/auth/email/undo": {
      call: () => ({ path: "/api/v1/auth/email/undo", body: { token: unique("t") } }),
      expect: everyone(422),
    },
    "POST /api/v1/auth/password-reset/request": {
      call: async () => ({
        path: "/api/v1/auth/password-reset/request",
        body: { email: (await h.createUser()).email },
      }),
      expect: everyone(202),
    },
    "POST /api/v1/auth/password-reset/confirm": {
      call: async () => {
        const user = await h.createUser();
        await created(h.post("/api/v1/auth/password-reset/request", { email: user.email }), "reset request");
        // Reset codes are mailed by the outbox worker.
        await h.runOutboxOnce();

        return {
          path: "/api/v1/auth/password-reset/confirm",
          body: { email: user.email, code: h.lastCode(user.email), password: "another horse battery" },
        };
      },
      expect: everyone(200),
    },

    // Catalog, providers, listings, menu items
    "GET /api/v1/catalog/services": {
      call: () => ({ path: "/api/v1/catalog/services" }),
      expect: everyone(200),
    },
    "GET /api/v1/catalog/categories": {
      call: () => ({ path: "/api/v1/catalog/categories" }),
      expect: everyone(200),
    },
    "POST /api/v1/providers": {
      call: () => ({ path: "/api/v1/providers", body: { display_name: "New Kitchen" } }),
      // One profile per user: the two providers already have theirs (422, its only refusal).
      expect: { ...signedIn(201), provider: 422, other: 422 },
    },
    "PATCH /api/v1/providers/me": {
      call: () => ({ path: "/api/v1/providers/me", body: { bio: "Fresh every day" } }),
      expect: only(["provider", "other"], 200, 404),
    },
    "GET /api/v1/providers/me/dashboard": {
      call: () => ({ path: "/api/v1/providers/me/dashboard" }),
      expect: only(["provider", "other"], 200),
    },
    "POST /api/v1/providers/me/sales": {
      call: () => ({
        path: "/api/v1/providers/me/sales",
        body: { amount: 500, currency: "USD", description: "Market stall" },
      }),
      expect: only(["provider", "other"], 201),
    },
    "GET /api/v1/listings": { call: () => ({ path: "/api/v1/listings" }), expect: everyone(200) },
    "POST /api/v1/listings": {
      call: async (w) => ({
        path: "/api/v1/listings",
        body: { provider_id: w.provider.providerId, category_id: await h.categoryId(), name: "Night Market" },
      }),
      expect: only(["provider"], 201, 404),
    },
    "GET /api/v1/listings/{id}": {
      call: (w) => ({ path: `/api/v1/listings/${w.provider.listingId}` }),
      expect: everyone(200),
    },
    "PATCH /api/v1/listings/{id}": {
      call: (w) => ({ path: `/api/v1/listings/${w.provider.listingId}`, body: { name: unique("Renamed ") } }),
      expect: only(["provider"], 200, 404),
    },
    "DELETE /api/v1/listings/{id}": {
      call: async (w) => ({ path: `/api/v1/listings/${await h.listing(w.provider.providerId)}` }),
      expect: only(["provider"], 200, 404),
    },
    "GET /api/v1/listings/{id}/contact": {
      call: (w) => ({ path: `/api/v1/listings/${w.provider.listingId}/contact` }),
      expect: signedIn(200),
    },
    "POST /api/v1/listings/{id}/menu-items": {
      call: (w) => ({
        path: `/api/v1/listings/${w.provider.listingId}/menu-items`,
        body: { name: "Buns", price_amount: 300, currency: "USD" },
      }),
      expect: only(["provider"], 201, 404),
    },
    "PATCH /api/v1/menu-items/{id}": {
      call: (w) => ({ path: `/api/v1/menu-items/${w.provider.itemId}`, body: { name: unique("Dish ") } }),
      expect: only(["provider"], 200, 404),
    },
    "DELETE /api/v1/menu-items/{id}": {
      call: async (w) => {
        const item = await created(
          h.post(
            `/api/v1/listings/${w.provider.listingId}/menu-items`,
            { name: "Soup", price_amount: 300, currency: "USD" },
            as(w.provider),
          ),
          "menu item",
        );

        return { path: `/api/v1/menu-items/${item.id}?listing_id=${w.provider.listingId}` };
      },
      expect: only(["provider"], 200, 404),
    },
    "POST /api/v1/listings/{id}/subscription-payments": {
      call: async (w) => ({
        path: `/api/v1/listings/${await h.listing(w.provider.providerId, { status: "draft", subscription: "inactive", expiresAt: null })}/subscription-payments`,
        body: { method: "walletone_qr" },
        headers: { "idempotency-key": unique("sub") },
      }),
      expect: only(["provider"], 201, 404),
    },

    // Orders and payments
    "GET /api/v1/orders": { call: () => ({ path: "/api/v1/orders" }), expect: signedIn(200) },
    "POST /api/v1/orders": {
      call: (w, caller) => ({
        path: "/api/v1/orders",
        body: {
          menu_item_id: w.provider.itemId,
          quantity: 1,
          ...(caller === "anon" ? { email: "guest@example.com", phone: "+15550100" } : {}),
        },
        headers: { "idempotency-key": unique("order") },
      }),
      expect: everyone(201),
    },
    "GET /api/v1/guest/orders/{id}": {
      call: async (w) => {
        const guest = await created<{ id: string; guest_access_token: string }>(
          h.post(
            "/api/v1/orders",
            { menu_item_id: w.provider.itemId, quantity: 1, email: "guest@example.com", phone: "+15550100" },
            { headers: { "idempotency-key": unique("guest") } },
          ),
          "guest order",
        );

        return {
          path: `/api/v1/guest/orders/${guest.id}`,
          headers: { "x-guest-access-token": guest.guest_access_token },
        };
      },
      // The capability decides, whoever else the caller is.
      expect: everyone(200),
    },
    "POST /api/v1/guest/orders/{id}/unsubscribe": {
      call: async () => {
        const { id } = await created(
          h.post(
            "/api/v1/orders",
            {
              menu_item_id: (await seller()).itemId,
              quantity: 1,
              // An address of its own: guest orders are limited per email.
              email: `${unique("guest")}@example.com`,
              phone: "+15550100",
            },
            { headers: { "idempotency-key": unique("guest") } },
          ),
          "guest order",
        );

        return {
          path: `/api/v1/guest/orders/${id}/unsubscribe`,
          body: {
            token: guestMailStopToken(deriveKey(h.config.tokenSecret, KEY_PURPOSES.guestMailStop), id),
          },
        };
      },
      // The link's token decides, whoever else the caller is.
      expect: everyone(200),
    },
    "GET /api/v1/orders/{id}": {
      call: async (w) => ({ path: `/api/v1/orders/${(await order(w)).id}` }),
      // Customer, provider and staff; an accountant without the order's service is not staff for it.
      expect: { ...only(["member", "provider", "admin"], 200, 404) },
    },
    "POST /api/v1/orders/{id}/transition": {
      call: async (w) => {
        const placed = await order(w);

        return {
          path: `/api/v1/orders/${placed.id}/transition`,
          body: { status: "confirmed", version: placed.version },
        };
      },
      // The provider and administrators run an order (audited either way); the customer may read it
      // but only cancel; an accountant without the order's service does not see it.
      expect: { ...only(["provider", "admin"], 200, 404), member: 403 },
    },
    "POST /api/v1/orders/{id}/payments": {
      call: async (w) => ({
        path: `/api/v1/orders/${(await order(w)).id}/payments`,
        body: { method: "walletone_qr" },
        headers: { "idempotency-key": unique("pay") },
      }),
      expect: only(["member"], 201, 422),
    },
    "POST /api/v1/payments/{id}/submit": {
      call: async (w) => {
        const paid = await payment(w, false);

        return {
          path: `/api/v1/payments/${paid.id}/submit`,
          body: { method: "walletone_qr", version: paid.version },
        };
      },
      expect: only(["member"], 200, 404),
    },
    "POST /api/v1/payments/{id}/confirm": {
      call: async (w) => ({ path: `/api/v1/payments/${(await payment(w, true)).id}/confirm` }),
      expect: { ...only(["provider", "admin"], 200, 404), member: 403 },
    },
    "POST /api/v1/payments/{id}/evidence": {
      call: async (w) => ({
        path: `/api/v1/payments/${(await payment(w, false)).id}/evidence`,
        body: { note: "Transferred at 10:02" },
      }),
      expect: only(["member"], 200, 404),
    },

    // Notifications
    "POST /api/v1/devices": {
      call: () => ({ path: "/api/v1/devices", body: { token: unique("fcm-"), platform: "android" } }),
      expect: signedIn(201),
    },
    "GET /api/v1/notifications": { call: () => ({ path: "/api/v1/notifications" }), expect: signedIn(200) },
    "POST /api/v1/notifications/{id}/read": {
      call: async (w) => {
        await order(w);
        await h.runOutboxOnce();
        const inbox = await created<{ id: string }[]>(
          h.get("/api/v1/notifications", as(w.provider)),
          "inbox",
        );

        return { path: `/api/v1/notifications/${inbox[0]?.id}/read` };
      },
      expect: only(["provider"], 200, 404),
    },

    // Chat: a conversation between the member and the provider.
    "GET /api/v1/chat/conversations": {
      call: () => ({ path: "/api/v1/chat/conversations" }),
      expect: signedIn(200),
    },
    "POST /api/v1/chat/conversations": {
      call: async () => ({
        path: "/api/v1/chat/conversations",
        body: { other_user_id: (await h.createUser()).id },
      }),
      expect: signedIn(201),
    },
    "GET /api/v1/chat/conversations/{id}/messages": {
      call: async (w) => ({ path: `/api/v1/chat/conversations/${(await conversation(w)).id}/messages` }),
      expect: only(["member", "provider"], 200, 404),
    },
    "POST /api/v1/chat/conversations/{id}/messages": {
      call: async (w) => ({
        path: `/api/v1/chat/conversations/${(await conversation(w)).id}/messages`,
        body: { body: "Is it still available?" },
      }),
      expect: only(["member", "provider"], 201, 404),
    },
    "POST /api/v1/chat/conversations/{id}/read": {
      call: async (w) => ({ path: `/api/v1/chat/conversations/${(await conversation(w)).id}/read` }),
      expect: only(["member", "provider"], 200, 404),
    },
    "GET /api/v1/chat/conversations/{id}/realtime": {
      // Without an Upgrade header: a participant is told to upgrade (426), anyone else refused first.
      call: async (w) => ({ path: `/api/v1/chat/conversations/${(await conversation(w)).id}/realtime` }),
      expect: only(["member", "provider"], 426, 404),
    },

    // Media: a private upload of the member's.
    "POST /api/v1/media/upload": {
      call: () => ({
        path: "/api/v1/media/upload",
        body: { purpose: "moment", mime_type: "image/png", size_bytes: 100 },
      }),
      expect: signedIn(201),
    },
    "POST /api/v1/media/{id}/confirm": {
      call: async (w) => ({
        path: `/api/v1/media/${(await uploadMedia(h, w.member.accessToken)).id}/confirm`,
      }),
      expect: only(["member"], 200, 403),
    },
    "GET /api/v1/media/{id}": {
      call: async (w) => ({ path: `/api/v1/media/${(await uploadMedia(h, w.member.accessToken)).id}` }),
      expect: only(["member"], 200, 403),
    },

    // Community: moments are public to signed-in users.
    "GET /api/v1/community/feed": { call: () => ({ path: "/api/v1/community/feed" }), expect: signedIn(200) },
    "POST /api/v1/community/moments": {
      call: () => ({ path: "/api/v1/community/moments", body: { body: "Sunny today" } }),
      expect: signedIn(201),
    },
    "POST /api/v1/community/moments/{id}/like": {
      call: async (w) => ({ path: `/api/v1/community/moments/${(await moment(w)).id}/like` }),
      expect: signedIn(200),
    },
    "POST /api/v1/community/moments/{id}/view": {
      call: async (w) => ({ path: `/api/v1/community/moments/${(await moment(w)).id}/view` }),
      expect: signedIn(200),
    },
    "GET /api/v1/community/moments/{id}/counters": {
      call: async (w) => ({ path: `/api/v1/community/moments/${(await moment(w)).id}/counters` }),
      expect: signedIn(200),
    },
    "GET /api/v1/community/moments/{id}/comments": {
      call: async (w) => ({ path: `/api/v1/community/moments/${(await moment(w)).id}/comments` }),
      expect: signedIn(200),
    },
    "POST /api/v1/community/moments/{id}/comments": {
      call: async (w) => ({
        path: `/api/v1/community/moments/${(await moment(w)).id}/comments`,
        body: { body: "Nice" },
      }),
      expect: signedIn(201),
    },
    "POST /api/v1/community/moments/{id}/report": {
      call: async (w) => ({
        path: `/api/v1/community/moments/${(await moment(w)).id}/report`,
        body: { reason: "spam" },
      }),
      expect: signedIn(201),
    },
    "POST /api/v1/community/users/{id}/block": {
      call: async () => ({ path: `/api/v1/community/users/${(await h.createUser()).id}/block` }),
      expect: signedIn(200),
    },
    "DELETE /api/v1/community/users/{id}/block": {
      call: async () => ({ path: `/api/v1/community/users/${(await h.createUser()).id}/block` }),
      expect: signedIn(200),
    },
    // An author's own content: the member's moment; only its author changes it (others see it: 403).
    "PATCH /api/v1/community/moments/{id}": {
      call: async (w) => ({
        path: `/api/v1/community/moments/${(await moment(w)).id}`,
        body: { body: "Edited" },
      }),
      expect: only(["member"], 200),
    },
    "DELETE /api/v1/community/moments/{id}": {
      call: async (w) => ({ path: `/api/v1/community/moments/${(await moment(w)).id}` }),
      expect: only(["member"], 200),
    },
    "DELETE /api/v1/community/moments/{id}/like": {
      call: async (w) => ({ path: `/api/v1/community/moments/${(await moment(w)).id}/like` }),
      expect: signedIn(200),
    },
    // The provider's comment under the member's moment: its author edits it; it or the moment's author deletes it.
    "PATCH /api/v1/community/comments/{id}": {
      call: async (w) => ({
        path: `/api/v1/community/comments/${(await comment(w)).id}`,
        body: { body: "Edited" },
      }),
      expect: only(["provider"], 200),
    },
    "DELETE /api/v1/community/comments/{id}": {
      call: async (w) => ({ path: `/api/v1/community/comments/${(await comment(w)).id}` }),
      expect: only(["member", "provider"], 200),
    },
    "POST /api/v1/community/users/{id}/mute": {
      call: async () => ({ path: `/api/v1/community/users/${(await h.createUser()).id}/mute` }),
      expect: signedIn(200),
    },
    "DELETE /api/v1/community/users/{id}/mute": {
      call: async () => ({ path: `/api/v1/community/users/${(await h.createUser()).id}/mute` }),
      expect: signedIn(200),
    },
    "GET /api/v1/community/mutes": {
      call: () => ({ path: "/api/v1/community/mutes" }),
      expect: signedIn(200),
    },

    // Lifestyle
    "PUT /api/v1/dating/profile": {
      call: () => ({ path: "/api/v1/dating/profile", body: { visible: true, bio: "Hiking" } }),
      expect: signedIn(200),
    },
    "GET /api/v1/dating/browse": { call: () => ({ path: "/api/v1/dating/browse" }), expect: signedIn(200) },
    "GET /api/v1/curated-content": {
      call: () => ({ path: "/api/v1/curated-content" }),
      expect: signedIn(200),
    },
    "GET /api/v1/meetings": { call: () => ({ path: "/api/v1/meetings" }), expect: signedIn(200) },
    "POST /api/v1/meetings": {
      call: () => ({
        path: "/api/v1/meetings",
        body: { title: "Book club", starts_at: new Date(h.clock.now().getTime() + 3600_000).toISOString() },
      }),
      expect: signedIn(201),
    },
    "POST /api/v1/meetings/{id}/join": {
      call: async (w) => ({ path: `/api/v1/meetings/${(await meeting(w)).id}/join` }),
      expect: signedIn(200),
    },
    "POST /api/v1/meetings/{id}/leave": {
      call: async (w, caller) => {
        const { id } = await meeting(w);
        const who = callerOf(w, caller);
        if (who) {
          await created(h.post(`/api/v1/meetings/${id}/join`, undefined, as(who)), "join");
        }

        return { path: `/api/v1/meetings/${id}/leave` };
      },
      expect: signedIn(200),
    },
    "POST /api/v1/meetings/{id}/end": {
      call: async (w) => ({ path: `/api/v1/meetings/${(await meeting(w)).id}/end` }),
      expect: only(["member"], 200),
    },
    "GET /api/v1/announcements": { call: () => ({ path: "/api/v1/announcements" }), expect: signedIn(200) },

    // Administration and reporting
    "GET /api/v1/reports/summary": {
      call: () => ({ path: "/api/v1/reports/summary" }),
      expect: only(["accountant", "admin"], 200),
    },
    "GET /api/v1/admin/audit": { call: () => ({ path: "/api/v1/admin/audit" }), expect: adminOnly(200) },
    "GET /api/v1/admin/overview": {
      call: () => ({ path: "/api/v1/admin/overview" }),
      expect: adminOnly(200),
    },
    "GET /api/v1/admin/{kind}": { call: () => ({ path: "/api/v1/admin/users" }), expect: adminOnly(200) },
    "PATCH /api/v1/admin/{kind}/{id}/status": {
      call: async () => ({
        path: `/api/v1/admin/users/${(await h.createUser()).id}/status`,
        body: { status: "suspended" },
      }),
      expect: adminOnly(200),
    },
    "PATCH /api/v1/admin/users/{id}/role": {
      call: async () => ({
        path: `/api/v1/admin/users/${(await h.createUser()).id}/role`,
        body: { role: "provider" },
      }),
      expect: adminOnly(200),
    },
    "POST /api/v1/admin/orders/{id}/transition": {
      call: async (w) => {
        const placed = await order(w);

        return {
          path: `/api/v1/admin/orders/${placed.id}/transition`,
          body: { status: "confirmed", version: placed.version },
        };
      },
      expect: adminOnly(200),
    },
    "POST /api/v1/admin/payments/{id}/reject": {
      call: async (w) => ({ path: `/api/v1/admin/payments/${(await payment(w, true)).id}/reject` }),
      expect: adminOnly(200),
    },
    "GET /api/v1/admin/accountants/{id}/services": {
      call: (w) => ({ path: `/api/v1/admin/accountants/${w.accountant.user.id}/services` }),
      expect: adminOnly(200),
    },
    "PUT /api/v1/admin/accountants/{id}/services": {
      call: (w) => ({
        path: `/api/v1/admin/accountants/${w.accountant.user.id}/services`,
        body: { service_ids: [] },
      }),
      expect: adminOnly(200),
    },
    "POST /api/v1/admin/providers/{id}/approve": {
      call: async () => ({
        path: `/api/v1/admin/providers/${(await h.provider({ approved: false })).providerId}/approve`,
      }),
      expect: adminOnly(200),
    },
    "GET /api/v1/admin/community/reports": {
      call: () => ({ path: "/api/v1/admin/community/reports" }),
      expect: adminOnly(200),
    },
    "POST /api/v1/admin/community/reports/{id}/moderate": {
      call: async (w) => ({
        path: `/api/v1/admin/community/reports/${(await report(w)).id}/moderate`,
        body: { action: "none" },
      }),
      expect: adminOnly(200),
    },
    "POST /api/v1/admin/community/reports/{id}/status": {
      call: async (w) => ({
        path: `/api/v1/admin/community/reports/${(await report(w)).id}/status`,
        body: { status: "reviewing" },
      }),
      expect: adminOnly(200),
    },
    "POST /api/v1/reports": {
      call: async () => {
        const author = await h.signIn();
        const { id } = await created(
          h.post("/api/v1/community/moments", { body: "hi" }, as(author)),
          "moment",
        );

        return { path: "/api/v1/reports", body: { target_type: "moment", target_id: id, category: "spam" } };
      },
      expect: signedIn(201),
    },
    "GET /api/v1/admin/reports": {
      call: () => ({ path: "/api/v1/admin/reports?group_by=target" }),
      expect: adminOnly(200),
    },
    "GET /api/v1/admin/reports/targets/{target_type}/{target_id}": {
      call: async (w) => ({
        path: `/api/v1/admin/reports/targets/moment/${((await report(w)) as unknown as { moment_id: string }).moment_id}`,
      }),
      expect: adminOnly(200),
    },
    "POST /api/v1/admin/reports/targets/{target_type}/{target_id}/decision": {
      call: async (w) => ({
        path: `/api/v1/admin/reports/targets/moment/${((await report(w)) as unknown as { moment_id: string }).moment_id}/decision`,
        body: { action: "dismiss" },
      }),
      expect: adminOnly(200),
    },
    "POST /api/v1/admin/announcements": {
      call: () => ({
        path: "/api/v1/admin/announcements",
        body: { title: "Maintenance", body: "Sunday 02:00" },
      }),
      expect: adminOnly(201),
    },
    "GET /api/v1/admin/filters": { call: () => ({ path: "/api/v1/admin/filters" }), expect: adminOnly(200) },
    "POST /api/v1/admin/filters": {
      call: () => {
        filterCount += 1;

        return {
          path: "/api/v1/admin/filters",
          body: { match: "word", value: `matrixnew${filterCount}`, action: "flag", contexts: ["listings"] },
        };
      },
      expect: adminOnly(201),
    },
    "PATCH /api/v1/admin/filters/{id}": {
      call: async (w) => ({
        path: `/api/v1/admin/filters/${(await filterRule(w)).id}`,
        body: { action: "hold" },
      }),
      expect: adminOnly(200),
    },
    "DELETE /api/v1/admin/filters/{id}": {
      call: async (w) => ({ path: `/api/v1/admin/filters/${(await filterRule(w)).id}` }),
      expect: adminOnly(200),
    },
    "GET /api/v1/admin/exports/reports.csv": {
      call: () => ({ path: "/api/v1/admin/exports/reports.csv" }),
      expect: adminOnly(200),
    },
  };

  it("has a row for each of the API's pairs, and only those", () => {
    expect(Object.keys(rows).sort()).toEqual([...specRoutes].sort());
  });

  // One test per pair: its six cells, each a fresh valid request.
  for (const pair of [...specRoutes].sort()) {
    it(pair, async () => {
      const row = rows[pair];
      if (!row) {
        throw new Error(`no row for ${pair}`);
      }
      const [method = "GET"] = pair.split(" ");
      const w = await world();
      const answered: Record<string, number> = {};
      const codes: Record<string, string | undefined> = {};
      for (const caller of callers) {
        const call = await row.call(w, caller);
        const who = callerOf(w, caller);
        const res = await h.request<{ error?: { code: string } | null }>(method, call.path, {
          ...(call.body === undefined ? {} : { body: call.body }),
          ...(call.headers ? { headers: call.headers } : {}),
          ...(who ? { token: who.accessToken } : {}),
        });
        answered[caller] = res.status;
        codes[caller] =
          typeof res.body === "object" && res.body ? (res.body.error?.code ?? undefined) : undefined;
      }
      expect(answered).toEqual(row.expect);
      // The refusals carry the envelope's codes: no token is `unauthorized`, a role short `forbidden`.
      for (const caller of callers) {
        if (answered[caller] === 401) {
          expect({ caller, code: codes[caller] }).toEqual({ caller, code: "unauthorized" });
        }
        if (answered[caller] === 403) {
          expect({ caller, code: codes[caller] }).toEqual({ caller, code: "forbidden" });
        }
      }
    });
  }

  it("lets an accountant read the order collection, scoped to its services (Authentication item 7)", async () => {
    const w = await world();
    await order(w);
    const res = await h.get<{ data: unknown[]; meta: { total: number } }>(
      "/api/v1/admin/orders",
      as(w.accountant),
    );
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(0);
    expect((await h.get("/api/v1/admin/users", as(w.accountant))).status).toBe(403);
  });
});
