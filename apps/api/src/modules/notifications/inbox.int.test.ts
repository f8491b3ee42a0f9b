import { createMemoryPush } from "@agora/adapters/push/memory-push";
import type { ConversationDto } from "@agora/contracts/chat";
import type { MeetingDto } from "@agora/contracts/lifestyle";
import type { NotificationDto } from "@agora/contracts/notifications";
import { writeLimitDefaults } from "@agora/domain/common/write-limits";
import { chatNoticeId } from "@agora/domain/notifications/notify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn, type TestUser } from "../../../test/harness";

type Page<T, M> = { data: T[]; meta: M; error: { code: string; details?: { path: string }[] } | null };
type UnreadMeta = { limit: number; next_before: string | null; unread_count: number };

/**
 * The inbox under chat volume (issue 29): chat notices collapse per conversation, every page of
 * the inbox, the conversations and the meetings is reachable, and the unread counts agree.
 */
describe("the inbox, the conversation list and the meetings list, page by page", () => {
  let h: Harness;
  let shop: Awaited<ReturnType<Harness["orderable"]>>;
  const push = createMemoryPush();

  beforeAll(async () => {
    h = await createHarness({
      push,
      // The walks below open more conversations and meetings than one member may in an hour.
      config: { writeLimitsPerHour: { ...writeLimitDefaults, conversations: 0, meetings: 0 } },
    });
    shop = await h.orderable();
  });
  afterAll(async () => {
    await h?.close();
  });

  /** Delivers every due outbox event. */
  const deliverAll = async () => {
    while ((await h.runOutboxOnce({ batchSize: 200 })).claimed > 0) {
      // next batch
    }
  };
  const tick = () => h.clock.advance(10);
  const open = async (me: SignedIn, other: { id: string }) => {
    tick();
    const res = await h.post<{ data: ConversationDto }>(
      "/api/v1/chat/conversations",
      { other_user_id: other.id },
      { token: me.accessToken },
    );
    expect(res.status).toBe(201);

    return res.body.data;
  };
  const send = async (who: SignedIn, conversationId: string, body = "hello") => {
    tick();
    const res = await h.post(
      `/api/v1/chat/conversations/${conversationId}/messages`,
      { body },
      { token: who.accessToken },
    );
    expect(res.status).toBe(201);
  };
  const placeOrder = async (who: SignedIn) => {
    tick();
    const res = await h.post(
      "/api/v1/orders",
      { menu_item_id: shop.itemId, quantity: 1 },
      { token: who.accessToken },
    );
    expect(res.status).toBe(201);
  };
  const inboxPage = (who: SignedIn, before?: string) =>
    h.get<Page<NotificationDto, UnreadMeta>>(
      `/api/v1/notifications${before ? `?before=${encodeURIComponent(before)}` : ""}`,
      { token: who.accessToken },
    );
  const conversationsPage = (who: SignedIn, before?: string) =>
    h.get<Page<ConversationDto, UnreadMeta>>(
      `/api/v1/chat/conversations${before ? `?before=${encodeURIComponent(before)}` : ""}`,
      { token: who.accessToken },
    );
  /** Every page of a list, following `meta.next_before`; `between` runs before each next page. */
  const walk = async <T, M extends { next_before: string | null }>(
    pageOf: (before?: string) => Promise<{ status: number; body: Page<T, M> }>,
    between: (pageIndex: number) => Promise<void> = async () => {},
  ) => {
    const pages: { data: T[]; meta: M }[] = [];
    let before: string | undefined;
    do {
      if (pages.length > 0) {
        await between(pages.length);
      }
      const res = await pageOf(before);
      expect(res.status).toBe(200);
      pages.push(res.body);
      before = res.body.meta.next_before ?? undefined;
    } while (before !== undefined && pages.length < 20);

    return pages;
  };
  /** The member's inbox and conversations, whole, and the unread counts both lists report. */
  const everything = async (who: SignedIn) => {
    const inbox = await walk((before) => inboxPage(who, before));
    const conversations = await walk((before) => conversationsPage(who, before));
    return {
      notices: inbox.flatMap((page) => page.data),
      conversations: conversations.flatMap((page) => page.data),
      counts: [...inbox, ...conversations].map((page) => page.meta.unread_count),
    };
  };
  /**
   * The rule: `unread_count` (on every page of both lists) is the sum of the conversations' unread
   * counts plus the unread notices other than chat; and each chat notice shows its conversation's.
   */
  const expectCountsAgree = async (who: SignedIn) => {
    const { notices, conversations, counts } = await everything(who);
    const chatUnread = conversations.reduce((sum, c) => sum + c.unread_count, 0);
    const otherUnread = notices.filter((n) => n.kind !== "message.sent" && n.read_at === null).length;
    for (const count of counts) {
      expect(count).toBe(chatUnread + otherUnread);
    }
    for (const notice of notices.filter((n) => n.kind === "message.sent")) {
      const conversation = conversations.find((c) => c.id === notice.data.conversation_id);
      expect(notice.unread_count).toBe(conversation?.unread_count);
      expect(notice.read_at === null).toBe((conversation?.unread_count ?? 0) > 0);
    }
    expect(notices.reduce((sum, n) => sum + n.unread_count, 0)).toBe(chatUnread + otherUnread);

    return { notices, conversations, unread: chatUnread + otherUnread };
  };

  describe("chat notices collapse per conversation", () => {
    let member: SignedIn;
    let senders: SignedIn[];
    let conversations: ConversationDto[];

    beforeAll(async () => {
      member = await h.signIn();
      senders = [await h.signIn(), await h.signIn(), await h.signIn(), await h.signIn()];
      await h.post(
        "/api/v1/devices",
        { token: "member-phone", platform: "ios" },
        { token: member.accessToken },
      );
      for (let index = 0; index < 3; index += 1) {
        await placeOrder(member);
      }
      await deliverAll();
      conversations = [];
      for (const sender of senders) {
        conversations.push(await open(sender, member.user));
      }
      // 120 messages, round robin over the four conversations: all after the three orders.
      for (let index = 0; index < 120; index += 1) {
        const which = index % senders.length;
        await send(
          senders[which] as SignedIn,
          (conversations[which] as ConversationDto).id,
          `message ${index}`,
        );
      }
      push.clear();
      await deliverAll();
    });

    it("leaves the 3 order notices on the first page beside one chat notice per conversation", async () => {
      const first = await inboxPage(member);
      expect(first.status).toBe(200);
      const kinds = first.body.data.map((n) => n.kind);
      expect(kinds.filter((kind) => kind === "order.created")).toHaveLength(3);
      const chat = first.body.data.filter((n) => n.kind === "message.sent");
      expect(chat.map((n) => n.data.conversation_id).sort()).toEqual(conversations.map((c) => c.id).sort());
      expect(chat.map((n) => n.id).sort()).toEqual(
        conversations.map((c) => chatNoticeId(c.id, member.user.id)).sort(),
      );
      for (const notice of chat) {
        expect(notice).toMatchObject({ read_at: null, unread_count: 30, title: "New message" });
        expect(notice.body).toMatch(/sent you 30 messages\.$/);
        expect(notice.body).not.toContain("message 1");
      }
      // Newest first: the chat notices (raised by the latest messages) above the orders.
      expect(kinds).toEqual([
        ...chat.map(() => "message.sent"),
        "order.created",
        "order.created",
        "order.created",
      ]);
      expect(first.body.meta).toEqual({ limit: 50, next_before: null, unread_count: 123 });
      const { rows } = await h.db.sql.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND kind = 'message.sent'",
        [member.user.id],
      );
      expect(rows[0]?.n).toBe(4);
    });

    it("pushes collapse per conversation and carry the member's unread count as the badge", () => {
      const pushes = push.sentTo("member-phone");
      expect(pushes.length).toBeGreaterThanOrEqual(conversations.length);
      expect(new Set(pushes.map((p) => p.message.collapseKey))).toEqual(
        new Set(conversations.map((c) => `conversation:${c.id}`)),
      );
      // Every message was stored before the worker ran: each push counts them all, plus the orders.
      for (const sent of pushes) {
        expect(sent.message.badge).toBe(123);
        expect(sent.message.body).not.toContain("message ");
      }
    });

    it("reading a conversation reads its notice, and the counts agree after every step", async () => {
      const [c0, c1, c2] = conversations as [ConversationDto, ConversationDto, ConversationDto];
      expect((await expectCountsAgree(member)).unread).toBe(123);

      // 1. Reading the first conversation reads its notice.
      tick();
      expect(
        (await h.post(`/api/v1/chat/conversations/${c0.id}/read`, undefined, { token: member.accessToken }))
          .status,
      ).toBe(200);
      let state = await expectCountsAgree(member);
      expect(state.unread).toBe(93);
      const notice0 = state.notices.find((n) => n.id === chatNoticeId(c0.id, member.user.id));
      expect(notice0).toMatchObject({ read_at: h.clock.now().toISOString(), unread_count: 0 });

      // 2. Reading an order notice.
      const order = state.notices.find((n) => n.kind === "order.created") as NotificationDto;
      expect(
        (await h.post(`/api/v1/notifications/${order.id}/read`, undefined, { token: member.accessToken }))
          .status,
      ).toBe(200);
      expect((await expectCountsAgree(member)).unread).toBe(92);

      // 3. A new message revives the read notice: the same row, unread, counting 1, on top.
      await send(senders[0] as SignedIn, c0.id, "are you there?");
      await deliverAll();
      state = await expectCountsAgree(member);
      expect(state.unread).toBe(93);
      expect(state.notices[0]).toMatchObject({
        id: chatNoticeId(c0.id, member.user.id),
        read_at: null,
        unread_count: 1,
        body: expect.stringMatching(/sent you a message\.$/) as unknown as string,
      });

      // 4. Replying reads the conversation (sending marks it read), and with it its notice.
      await send(member, c1.id, "yes");
      state = await expectCountsAgree(member);
      expect(state.unread).toBe(63);
      expect(state.notices.find((n) => n.id === chatNoticeId(c1.id, member.user.id))?.read_at).not.toBeNull();

      // 5. Reading a chat notice reads its conversation.
      tick();
      const read = await h.post<{ data: NotificationDto }>(
        `/api/v1/notifications/${chatNoticeId(c2.id, member.user.id)}/read`,
        undefined,
        { token: member.accessToken },
      );
      expect(read.body.data).toMatchObject({ read_at: h.clock.now().toISOString(), unread_count: 0 });
      state = await expectCountsAgree(member);
      expect(state.unread).toBe(33);
      expect(state.conversations.find((c) => c.id === c2.id)?.unread_count).toBe(0);

      // 6. Everything read in one request.
      const all = await h.post<{ data: Record<string, number> }>(
        "/api/v1/notifications/all/read",
        undefined,
        {
          token: member.accessToken,
        },
      );
      expect(all.status).toBe(200);
      expect(all.body.data).toEqual({ notifications: 2, conversations: 2, unread_count: 0 });
      state = await expectCountsAgree(member);
      expect(state.unread).toBe(0);
      expect(state.notices.every((n) => n.read_at !== null)).toBe(true);

      // Again: nothing left to mark, still 200.
      const again = await h.post<{ data: Record<string, number> }>(
        "/api/v1/notifications/all/read",
        undefined,
        {
          token: member.accessToken,
        },
      );
      expect(again.body.data).toEqual({ notifications: 0, conversations: 0, unread_count: 0 });
    });

    it("delivers a redelivered or late message event into nothing new", async () => {
      const notice = chatNoticeId((conversations[3] as ConversationDto).id, member.user.id);
      const before = await h.db.sql.query(
        "SELECT data, created_at, pushed_at FROM notifications WHERE id = $1",
        [notice],
      );
      await h.db.sql.query(
        "UPDATE outbox_events SET processed_at = NULL, attempts = 0 WHERE kind = 'message.sent' AND aggregate_id = $1",
        [(conversations[3] as ConversationDto).id],
      );
      await deliverAll();
      const after = await h.db.sql.query(
        "SELECT data, created_at, pushed_at FROM notifications WHERE id = $1",
        [notice],
      );
      expect(after.rows).toEqual(before.rows);
    });
  });

  it("visits each of 130 conversations exactly once with `before` while new messages arrive", async () => {
    const member = await h.signIn();
    const others: TestUser[] = [];
    const ids: string[] = [];
    for (let index = 0; index < 130; index += 1) {
      const other = await h.createUser();
      others.push(other);
      ids.push((await open(member, other)).id);
    }
    // During the walk: activity in conversations already listed, not listed yet, and a new one.
    const during = async (pageIndex: number) => {
      // Listed newest opened first: the last ids are on the first page, the first ones on the last.
      await send(member, ids[ids.length - 1 - pageIndex * 7] as string, "moves to the top (already listed)");
      await send(member, ids[pageIndex * 3] as string, "moves to the top (not listed yet)");
      await open(member, await h.createUser());
    };
    const pages = await walk((before) => conversationsPage(member, before), during);

    expect(pages.map((page) => page.data.length)).toEqual([50, 50, 30]);
    const visited = pages.flatMap((page) => page.data.map((c) => c.id));
    expect(visited).toHaveLength(130);
    expect(new Set(visited)).toEqual(new Set(ids));
    // Most recently active first, as they stood when the walk began: newest opened first.
    expect(visited).toEqual([...ids].reverse());
    expect(pages.at(-1)?.meta.next_before).toBeNull();

    // A fresh first page shows the conversations that moved and the new ones on top.
    const fresh = await conversationsPage(member);
    expect(fresh.body.data.slice(1, 3).map((c) => c.id)).toEqual([ids[6], ids[ids.length - 1 - 14]]);
  });

  it("pages the inbox with `before`, stable under inserts, and refuses a malformed cursor", async () => {
    const member = await h.signIn();
    for (let index = 0; index < 60; index += 1) {
      await placeOrder(member);
    }
    await deliverAll();
    const seen: string[] = [];
    const pages = await walk(
      (before) => inboxPage(member, before),
      async () => {
        await placeOrder(member);
        await deliverAll();
      },
    );
    for (const page of pages) {
      seen.push(...page.data.map((n) => n.id));
    }
    expect(pages.map((page) => page.data.length)).toEqual([50, 10]);
    expect(new Set(seen).size).toBe(60);
    expect(pages[0]?.meta.unread_count).toBe(60);

    const bad = await h.get<Page<never, null>>("/api/v1/notifications?before=yesterday", {
      token: member.accessToken,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error?.code).toBe("validation_failed");
    expect(bad.body.error?.details?.map((detail) => detail.path)).toEqual(["before"]);
    const badChat = await h.get<Page<never, null>>("/api/v1/chat/conversations?before=1_2", {
      token: member.accessToken,
    });
    expect(badChat.status).toBe(422);
    expect(badChat.body.error?.details?.map((detail) => detail.path)).toEqual(["before"]);
  });

  it("pages the meetings with `after`, soonest first, each once while meetings come and end", async () => {
    const host = await h.signIn();
    const viewer = await h.signIn();
    const base = h.clock.now().getTime() + 86_400_000;
    const create = async (offsetMinutes: number) => {
      const res = await h.post<{ data: MeetingDto }>(
        "/api/v1/meetings",
        {
          title: `Meeting ${offsetMinutes}`,
          starts_at: new Date(base + offsetMinutes * 60_000).toISOString(),
        },
        { token: host.accessToken },
      );
      expect(res.status).toBe(201);
      return res.body.data;
    };
    const created: MeetingDto[] = [];
    for (let index = 0; index < 60; index += 1) {
      // Two meetings per start time: the id breaks the tie.
      created.push(await create(Math.floor(index / 2) * 10));
    }
    const listOf = (after?: string) =>
      h.get<Page<MeetingDto, { limit: number; next_after: string | null }>>(
        `/api/v1/meetings${after ? `?after=${after}` : ""}`,
        { token: viewer.accessToken },
      );
    const first = await listOf();
    expect(first.status).toBe(200);
    const mine = (page: MeetingDto[]) => page.filter((m) => m.host_id === host.user.id);
    // Other tests' meetings start earlier (or none): this host's fill the page from some point on.
    const visited = mine(first.body.data).map((m) => m.id);
    let after = first.body.meta.next_after;
    // Meanwhile: one sooner than the cursor (not shown in this walk) and a meeting ended.
    await create(-5);
    const ended = created.at(-1) as MeetingDto;
    expect(
      (await h.post(`/api/v1/meetings/${ended.id}/end`, undefined, { token: host.accessToken })).status,
    ).toBe(200);
    while (after) {
      const page = await listOf(after);
      expect(page.status).toBe(200);
      visited.push(...mine(page.body.data).map((m) => m.id));
      after = page.body.meta.next_after;
    }
    const expected = created
      .filter((m) => m.id !== ended.id)
      .sort((a, b) => a.starts_at.localeCompare(b.starts_at) || a.id.localeCompare(b.id))
      .map((m) => m.id);
    expect(visited).toEqual(expected);
  });
});
