// End to end through the published client (@agora/contracts/client and client.admin) against the
// real app listening on an ephemeral port, realtime channel included. Every client here checks each
// response against its contract schema (validateResponses), so a server answer that drifts from the
// contracts fails these flows too.
//
// Every HTTP request of these flows goes through Stoplight Prism's validating proxy (test/prism.ts,
// started with the document the server serves), and the last test fails on any answer Prism found
// that breaks that document: a checker no one here wrote. Requests sent invalid on purpose are
// request violations, expected. Realtime sockets and the uploads to S3 go direct.

import type { MessageDto } from "@agora/contracts/chat";
import { type AgoraClientOptions, AgoraError, createAgoraClient } from "@agora/contracts/client";
import { createAgoraAdminClient } from "@agora/contracts/client.admin";
import type { SessionDto } from "@agora/contracts/identity";
import {
  connectChat,
  defaultSocketFactory,
  type PresenceDto,
  type TypingDto,
  type WebSocketLike,
} from "@agora/contracts/realtime";
import { eventually } from "@agora/testing/eventually";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../test/harness";
import { type PrismProxy, startPrism } from "../test/prism";
import { startServer, type TestServer } from "../test/realtime";
import { type LocalS3, startLocalS3, TINY_PNG } from "../test/s3";

describe("the typed client against a listening server", () => {
  let h: Harness;
  let server: TestServer;
  let s3: LocalS3;
  let prism: PrismProxy;
  let baseUrl: string;

  beforeAll(async () => {
    s3 = await startLocalS3();
    h = await createHarness({ config: { s3: s3.config } });
    server = await startServer(h);
    baseUrl = `http://127.0.0.1:${server.port}`;
    prism = await startPrism(baseUrl);
    // Read at call time by the clients and by the tests' own fetch wrappers alike.
    vi.stubGlobal("fetch", prism.fetchThrough(globalThis.fetch));
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    await prism?.close();
    await server?.close();
    await h?.close();
    await s3?.close();
  });

  const options = (session?: SignedIn, extra: Partial<AgoraClientOptions> = {}): AgoraClientOptions => ({
    baseUrl,
    validateResponses: true,
    retryDelayMs: 10,
    ...(session
      ? { getAccessToken: () => session.accessToken, getRefreshToken: () => session.refreshToken }
      : {}),
    ...extra,
  });
  const clientOf = (session?: SignedIn, extra: Partial<AgoraClientOptions> = {}) =>
    createAgoraClient(options(session, extra));
  const adminClientOf = (session: SignedIn) => createAgoraAdminClient(options(session));

  /** The error a call rejects with. */
  const failure = async (call: Promise<unknown>): Promise<AgoraError> => {
    try {
      await call;
    } catch (error) {
      if (error instanceof AgoraError) {
        return error;
      }
      throw error;
    }
    throw new Error("the call succeeded");
  };

  describe("identity", () => {
    it("registers, verifies, signs in with the mailed code and keeps the session it got", async () => {
      const sessions: Array<SessionDto | null> = [];
      const client = clientOf(undefined, { onSession: (session) => void sessions.push(session) });
      const email = `client-${Date.now()}@example.com`;

      const { user_id } = await client.auth.register({
        username: `cl${Date.now()}`,
        email,
        password: "long enough pw",
      });
      await expect(client.auth.verifyEmail({ user_id, code: h.lastCode(email) })).resolves.toEqual({
        status: "verified",
      });
      await expect(client.auth.login({ email, password: "long enough pw" })).resolves.toEqual({
        status: "code_sent",
      });
      const session = await client.auth.loginVerify({ email, code: h.lastCode(email) });

      expect(session.user).toMatchObject({ id: user_id, email, status: "active" });
      expect(sessions).toEqual([session]);
      // The client sends the kept access token by itself.
      await expect(client.auth.me()).resolves.toMatchObject({ id: user_id });
      const renamed = await client.auth.updateMe({ username: `cl${Date.now()}x`, display_name: "Renamed" });
      expect(renamed.display_name).toBe("Renamed");

      await client.auth.logout({ refresh_token: session.refresh_token });
      expect(sessions.at(-1)).toBeNull();
    });

    it("throws AgoraError with code, status, request id and details", async () => {
      const client = clientOf();
      const error = await failure(
        client.auth.register({ username: "ok-name", email: "not-an-email", password: "x" }),
      );

      expect(error).toBeInstanceOf(AgoraError);
      expect(error.code).toBe("validation_failed");
      expect(error.status).toBe(422);
      expect(error.requestId).toMatch(/.+/);
      expect(error.details?.map((issue) => issue.path)).toEqual(
        expect.arrayContaining(["email", "password"]),
      );
    });

    it("on a 401 refreshes once with the refresh token, retries, and hands over the new session", async () => {
      const signed = await h.signIn();
      const stored = { access: signed.accessToken, refresh: signed.refreshToken };
      const unauthorized: AgoraError[] = [];
      const client = clientOf(undefined, {
        getAccessToken: () => stored.access,
        getRefreshToken: () => stored.refresh,
        onSession: (session) => {
          stored.access = session?.access_token ?? "";
          stored.refresh = session?.refresh_token ?? "";
        },
        onUnauthorized: (error) => void unauthorized.push(error),
      });
      h.clock.advance(16 * 60_000); // past the 15-minute access token

      await expect(client.auth.me()).resolves.toMatchObject({ id: signed.user.id });

      expect(stored.access).not.toBe(signed.accessToken);
      expect(stored.refresh).not.toBe(signed.refreshToken);
      expect(unauthorized).toEqual([]);
    });

    it("surfaces a 401 through onUnauthorized when the refresh fails too", async () => {
      const signed = await h.signIn();
      const unauthorized: AgoraError[] = [];
      const refreshCalls: string[] = [];
      const client = clientOf(signed, {
        getRefreshToken: () => "revoked-or-unknown-refresh-token",
        fetch: (input, init) => {
          if (String(input).endsWith("/auth/refresh")) {
            refreshCalls.push(String(init?.body));
          }
          return fetch(input, init);
        },
        onUnauthorized: (error) => void unauthorized.push(error),
      });
      h.clock.advance(16 * 60_000);

      const error = await failure(client.orders.list());

      expect(error).toMatchObject({ code: "unauthorized", status: 401 });
      expect(refreshCalls).toHaveLength(1);
      expect(unauthorized).toEqual([error]);
    });
  });

  describe("marketplace", () => {
    it("a provider creates a listing with a menu item; anyone lists, searches and reads public listings", async () => {
      const seller = await h.provider({ displayName: "Client Noodles" });
      const provider = clientOf(seller);
      const categories = await clientOf().catalog.categories();
      const categoryId = categories[0]?.id ?? "";

      const draft = await provider.listings.create({
        provider_id: seller.providerId,
        category_id: categoryId,
        name: "Hand-pulled noodles",
      });
      expect(draft.status).toBe("draft");
      const item = await provider.listings.addMenuItem(draft.id, {
        name: "Biang biang",
        price_amount: 1400,
        currency: "usd",
      });
      expect(item).toMatchObject({ listing_id: draft.id, currency: "USD", price_amount: 1400 });

      const publicId = await h.listing(seller.providerId, {
        name: "Client dumpling house",
        items: [{ name: "Pork dumplings", priceAmount: 900 }],
      });
      const page = await clientOf().listings.list({ q: "client dumpling", limit: 5 });
      expect(page.meta).toEqual({ limit: 5, offset: 0, total: 1 });
      expect(page.data.map((listing) => listing.id)).toEqual([publicId]);
      const listing = await clientOf().listings.get(publicId);
      expect(listing.menu_items.map((menuItem) => menuItem.name)).toEqual(["Pork dumplings"]);

      const missing = await failure(clientOf().listings.get(draft.id));
      expect(missing).toMatchObject({ code: "not_found", status: 404 });
      const removed = await provider.menuItems.delete(item.id, { listing_id: draft.id });
      expect(removed).toEqual({ id: item.id, deleted: true });
    });
  });

  describe("orders and payments", () => {
    it("sets Idempotency-Key itself and reuses it when it retries a lost response: one order", async () => {
      const { itemId } = await h.orderable({ priceAmount: 700 });
      const buyer = await h.signIn();
      const sentKeys: Array<string | null> = [];
      let dropped = false;
      const client = clientOf(buyer, {
        // The first response is lost on the way back (the server did create the order).
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          if (init?.method === "POST" && String(input).endsWith("/api/v1/orders")) {
            sentKeys.push(new Headers(init.headers).get("idempotency-key"));
            if (!dropped) {
              dropped = true;
              await response.arrayBuffer();
              throw new TypeError("fetch failed");
            }
          }
          return response;
        },
      });

      const order = await client.orders.create({ menu_item_id: itemId, quantity: 2 });

      expect(sentKeys).toHaveLength(2);
      expect(sentKeys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(sentKeys[1]).toBe(sentKeys[0]);
      expect(order).toMatchObject({ customer_id: buyer.user.id, total_amount: 1400, status: "pending" });
      const mine = await client.orders.list();
      expect(mine.meta.total).toBe(1);
      expect(mine.data.map((listed) => listed.id)).toEqual([order.id]);
    });

    it("a customer orders and pays; the provider confirms the order and the payment", async () => {
      const { seller, itemId } = await h.orderable({ priceAmount: 1250 });
      const buyer = await h.signIn();
      const customer = clientOf(buyer);
      const provider = clientOf(seller);

      const order = await customer.orders.create({ menu_item_id: itemId, quantity: 1, notes: "no onions" });
      const confirmed = await provider.orders.transition(order.id, {
        status: "confirmed",
        version: order.version,
      });
      expect(confirmed).toMatchObject({ status: "confirmed", version: 2 });
      const stale = await failure(
        provider.orders.transition(order.id, { status: "in_progress", version: 1 }),
      );
      expect(stale).toMatchObject({ code: "order_conflict", status: 409 });

      const payment = await customer.orders.createPayment(order.id, { method: "walletone_qr" });
      expect(payment).toMatchObject({
        purpose: "order",
        purpose_id: order.id,
        amount: 1250,
        status: "unpaid",
      });
      const submitted = await customer.payments.submit(payment.id, {
        method: "walletone_qr",
        version: payment.version,
      });
      expect(submitted.status).toBe("payment_submitted");
      const paid = await provider.payments.confirm(payment.id);
      expect(paid.status).toBe("payment_confirmed");
      await expect(customer.orders.get(order.id)).resolves.toMatchObject({
        payment_status: "payment_confirmed",
      });
    });

    it("a guest orders without a token and reads the order with its one-time capability", async () => {
      const { itemId } = await h.orderable();
      const guest = clientOf();

      const order = await guest.orders.create({
        menu_item_id: itemId,
        quantity: 1,
        email: "guest@example.com",
        phone: "+15550100",
      });

      expect(order.customer_id).toBeNull();
      expect(order.guest_access_token).toHaveLength(64);
      const read = await guest.orders.getAsGuest(order.id, {
        headers: { "x-guest-access-token": order.guest_access_token ?? "" },
      });
      expect(read.id).toBe(order.id);
    });
  });

  describe("notifications", () => {
    it("registers a device and reads the notification an order sent the provider", async () => {
      const { seller, itemId } = await h.orderable();
      const provider = clientOf(seller);
      const device = await provider.devices.register({ token: `fcm-${seller.user.id}`, platform: "ios" });
      expect(device).toMatchObject({ token: `fcm-${seller.user.id}`, platform: "ios" });

      await clientOf(await h.signIn()).orders.create({ menu_item_id: itemId, quantity: 1 });
      await h.runOutboxOnce();

      const inbox = await provider.notifications.list();
      expect(inbox.data.length).toBeGreaterThan(0);
      expect(inbox.meta).toMatchObject({ limit: 50, next_before: null, unread_count: inbox.data.length });
      const first = inbox.data[0];
      expect(first?.read_at).toBeNull();
      const read = await provider.notifications.markRead(first?.id ?? "");
      expect("read_at" in read && read.read_at).not.toBeNull();
      const all = await provider.notifications.markRead("all");
      expect(all).toMatchObject({ unread_count: 0 });
      expect(
        (await provider.notifications.list({ before: inbox.meta.next_before ?? undefined })).meta
          .unread_count,
      ).toBe(0);
    });
  });

  describe("chat", () => {
    it("opens a conversation, sends, pages and marks read; the realtime helper delivers live messages", async () => {
      const alice = await h.signIn();
      const bob = await h.signIn();
      const a = clientOf(alice);
      const b = clientOf(bob);

      const conversation = await a.chat.openConversation({ other_user_id: bob.user.id });
      const received: MessageDto[] = [];
      const channel = b.chat.connect(conversation.id, {
        onMessage: (message) => void received.push(message),
      });
      try {
        await eventually(() => channel.status === "open");
        const sent = await a.chat.send(conversation.id, { body: "hello bob", client_message_id: "m-1" });
        expect(sent.seq).toBe(1);
        await eventually(() => received.length === 1);
        expect(received[0]).toMatchObject({ id: sent.id, body: "hello bob", seq: 1 });
      } finally {
        channel.close();
      }

      const page = await b.chat.messages(conversation.id, { after: 0 });
      expect(page.data.map((message) => message.body)).toEqual(["hello bob"]);
      expect(page.meta.has_more).toBe(false);
      const marker = await b.chat.markRead(conversation.id);
      expect(marker.last_read_seq).toBe(1);
      const {
        data: [listed],
      } = await b.chat.conversations();
      expect(listed).toMatchObject({ id: conversation.id, unread_count: 0 });
    });

    it("the realtime helper brings the other participant's presence and typing, and sends typing at most once per 2 s", async () => {
      const alice = await h.signIn();
      const bob = await h.signIn();
      const a = clientOf(alice);
      const b = clientOf(bob);
      const conversation = await a.chat.openConversation({ other_user_id: bob.user.id });
      const seen: PresenceDto[] = [];
      const typed: TypingDto[] = [];
      const bobs = b.chat.connect(conversation.id, {
        onPresence: (presence) => void seen.push(presence),
        onTyping: (typing) => void typed.push(typing),
      });
      const alices = a.chat.connect(conversation.id);
      try {
        expect(alices.typing()).toBe(false); // not open yet: nothing is sent
        await eventually(() => alices.status === "open" && bobs.status === "open");
        await eventually(() => seen.at(-1)?.online === true);
        expect(seen.at(-1)).toMatchObject({ user_id: alice.user.id, online: true });
        expect(alices.typing()).toBe(true);
        expect(alices.typing()).toBe(false);
        await eventually(() => typed.length === 1);
        expect(typed).toEqual([{ conversation_id: conversation.id, user_id: alice.user.id }]);
        alices.close();
        await eventually(() => seen.at(-1)?.online === false);
        expect(seen.at(-1)?.last_active_at).toEqual(expect.any(String));
      } finally {
        alices.close();
        bobs.close();
      }
    });

    it("the realtime helper reconnects after a drop and catches up with after=<last seq>, each message once", async () => {
      const alice = await h.signIn();
      const bob = await h.signIn();
      const a = clientOf(alice);
      const conversation = await a.chat.openConversation({ other_user_id: bob.user.id });
      const urls: string[] = [];
      const sockets: WebSocketLike[] = [];
      const received: number[] = [];
      let releaseReconnect = () => {};
      const reconnectGate = new Promise<void>((resolve) => {
        releaseReconnect = resolve;
      });

      const channel = connectChat({
        baseUrl,
        conversationId: conversation.id,
        // The second connection waits until the messages it must catch up on exist.
        getAccessToken: async () => {
          if (urls.length > 0) {
            await reconnectGate;
          }
          return bob.accessToken;
        },
        createSocket: (url, headers) => {
          urls.push(url);
          const socket = defaultSocketFactory(url, headers);
          sockets.push(socket);
          return socket;
        },
        backoff: { initialMs: 20, maxMs: 100 },
        onMessage: (message) => void received.push(message.seq),
      });
      try {
        await eventually(() => channel.status === "open");
        await a.chat.send(conversation.id, { body: "one" });
        await eventually(() => received.length === 1);

        sockets[0]?.close(); // the network drops
        await eventually(() => channel.status === "connecting");
        await a.chat.send(conversation.id, { body: "two" });
        await a.chat.send(conversation.id, { body: "three" });
        releaseReconnect();

        await eventually(() => received.length === 3);
        expect(received).toEqual([1, 2, 3]);
        expect(urls).toHaveLength(2);
        expect(urls[0]).not.toContain("after=");
        expect(urls[1]).toMatch(/\/realtime\?after=1$/);
        expect(channel.lastSeq).toBe(3);
      } finally {
        channel.close();
      }
    });
  });

  describe("chat with an expired access token", () => {
    it("the realtime helper refreshes once when its connection never opens, then connects", async () => {
      const alice = await h.signIn();
      const bob = await h.signIn();
      const conversation = await clientOf(alice).chat.openConversation({ other_user_id: bob.user.id });
      const stored = { access: bob.accessToken, refresh: bob.refreshToken };
      const b = clientOf(undefined, {
        getAccessToken: () => stored.access,
        getRefreshToken: () => stored.refresh,
        onSession: (session) => {
          stored.access = session?.access_token ?? "";
          stored.refresh = session?.refresh_token ?? "";
        },
      });
      h.clock.advance(16 * 60_000); // bob's access token has expired
      const received: string[] = [];

      const channel = b.chat.connect(conversation.id, {
        backoff: { initialMs: 20, maxMs: 100 },
        onMessage: (message) => void received.push(message.body),
      });
      try {
        await eventually(() => channel.status === "open");
        expect(stored.access).not.toBe(bob.accessToken);
        await clientOf(alice).chat.send(conversation.id, { body: "still there?" });
        await eventually(() => received.length === 1);
        expect(received).toEqual(["still there?"]);
      } finally {
        channel.close();
      }
    });
  });

  describe("media and community", () => {
    it("uploads an image with media.upload, posts a moment with it at once, likes, comments and reports it", async () => {
      const author = await h.signIn();
      const reader = await h.signIn();
      const mine = clientOf(author);
      const theirs = clientOf(reader);
      const bytes = new Uint8Array(TINY_PNG);

      // The ticket, the PUT to the signed URL (straight to S3, not through Prism) and the confirmation.
      const id = await mine.media.upload(new Blob([bytes], { type: "image/png" }), { purpose: "moment" });
      expect(s3.refused).toEqual([]);
      // The confirmation went through Prism (its answer is checked against the document).
      expect(prism.checked()).toContainEqual(
        expect.objectContaining({ method: "POST", path: `/api/v1/media/${id}/confirm`, status: 200 }),
      );
      // The moment takes the asset at once, before the worker processed it.
      const moment = await mine.community.createMoment({ body: "from the client", media_asset_ids: [id] });
      expect(moment.media_asset_ids).toEqual([id]);
      await expect(theirs.media.get(id)).resolves.toMatchObject({
        status: "processing",
        url: null,
        retry_after_seconds: 2,
      });
      await h.runOutboxOnce();
      const media = await theirs.media.get(id);
      expect(media).toMatchObject({ status: "ready", width: 1, height: 1, retry_after_seconds: null });
      if (media.url === null) {
        throw new Error("a ready asset has its URL");
      }
      const downloaded = new Uint8Array(await (await fetch(media.url)).arrayBuffer());
      // Its processed copy: a PNG again (re-encoded without metadata).
      expect([...downloaded.subarray(0, 4)]).toEqual([...bytes.subarray(0, 4)]);

      const feed = await theirs.community.feed();
      expect(feed.data.map((item) => item.id)).toContain(moment.id);
      await expect(theirs.community.like(moment.id)).resolves.toMatchObject({ likes: 1 });
      const comment = await theirs.community.comment(moment.id, { body: "nice" });
      const comments = await mine.community.comments(moment.id, { limit: 10 });
      expect(comments.data.map((item) => item.id)).toEqual([comment.id]);
      const report = await theirs.community.report(moment.id, { reason: "spam" });
      expect(report.status).toBe("open");
      await expect(mine.community.block(reader.user.id)).resolves.toMatchObject({ blocked: true });
    });
  });

  describe("lifestyle", () => {
    it("dating profiles, meetings and announcements through the client", async () => {
      const me = await h.signIn();
      const other = await h.signIn();
      const mine = clientOf(me);

      const profile = await mine.dating.putProfile({ visible: true, bio: "hiking", interests: ["Hiking"] });
      expect(profile).toMatchObject({ visible: true, interests: ["Hiking"] });
      const browse = await clientOf(other).dating.browse({ limit: 50 });
      expect(browse.data.map((item) => item.user_id)).toContain(me.user.id);

      const startsAt = new Date(h.clock.now().getTime() + 3600_000).toISOString();
      const meeting = await mine.meetings.create({ title: "Client standup", starts_at: startsAt });
      expect((await mine.meetings.list()).data.map((item) => item.id)).toContain(meeting.id);
      const video = await failure(mine.meetings.join(meeting.id));
      expect(video).toMatchObject({ code: "video_unavailable", status: 503 });
      await expect(mine.meetings.end(meeting.id)).resolves.toMatchObject({ status: "ended" });

      const admin = adminClientOf(await h.signIn({ role: "admin" }));
      const announcement = await admin.admin.announcements.create({
        title: "Hello",
        body: "From the admin app",
      });
      const announcements = await mine.announcements.list();
      expect(announcements.data.map((item) => item.id)).toContain(announcement.id);
      await expect(mine.curatedContent.list()).resolves.toMatchObject({ meta: { offset: 0 } });
    });
  });

  describe("administration", () => {
    it("the admin client lists, filters, moderates, suspends and exports", async () => {
      const admin = adminClientOf(await h.signIn({ role: "admin" }));
      const { itemId } = await h.orderable();
      const order = await clientOf(await h.signIn()).orders.create({ menu_item_id: itemId, quantity: 1 });

      const overview = await admin.admin.overview();
      expect(overview.marketplace.orders_awaiting_action).toBeGreaterThan(0);
      const pending = await admin.admin.orders.list({ status: "pending", limit: 100 });
      expect(pending.data.map((item) => item.id)).toContain(order.id);
      const cancelled = await admin.admin.orders.transition(order.id, { status: "cancelled", version: 1 });
      expect(cancelled.status).toBe("cancelled");

      const target = await h.signIn();
      const suspended = await admin.admin.users.setStatus(target.user.id, { status: "suspended" });
      expect(suspended.status).toBe("suspended");
      const refused = await failure(clientOf(target).auth.me());
      expect(refused).toMatchObject({ code: "unauthorized", status: 401 });

      const author = await h.signIn();
      const moment = await clientOf(author).community.createMoment({ body: "to be reported" });
      const report = await clientOf(await h.signIn()).community.report(moment.id, { reason: "abuse" });
      const closed = await admin.admin.community.moderate(report.id, {
        action: "hide_moment",
        note: "abusive",
      });
      expect(closed.status).toBe("resolved");
      const audit = await admin.admin.audit({ action: "user.status_changed" });
      expect(audit.data.map((event) => event.target_id)).toContain(target.user.id);
      const csv = await admin.admin.community.exportReportsCsv();
      expect(csv.split("\n")[0]).toContain("id");
      expect(csv).toContain(report.id);

      const member = clientOf(await h.signIn());
      // The member client has no admin surface; the routes refuse members anyway.
      expect("admin" in member).toBe(false);
      const forbidden = await failure(createAgoraAdminClient(options(await h.signIn())).admin.overview());
      expect(forbidden).toMatchObject({ code: "forbidden", status: 403 });
    });
  });

  // Last: what Prism found in every answer above.
  it("no answer broke the served OpenAPI document (Prism's validating proxy)", () => {
    // The flows above send about 80 requests: all of them went through Prism.
    expect(prism.checked().length).toBeGreaterThan(50);
    prism.assertNoFailures();
  });
});
