import { createMemoryPush } from "@agora/adapters/push/memory-push";
import type { ConversationDto, MessageDto } from "@agora/contracts/chat";
import { onPostgres } from "@agora/db/test/databases";
import { eventually } from "@agora/testing/eventually";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";
import { startServer, type TestServer } from "../../../test/realtime";

type Message = MessageDto;
type Conversation = ConversationDto;
type Body<T> = {
  data: T;
  meta: Record<string, unknown> | null;
  error: { code: string; details?: unknown } | null;
};

describe("chat over HTTP", () => {
  let h: Harness;
  let api: TestServer;
  const push = createMemoryPush();

  beforeAll(async () => {
    h = await createHarness({ seed: false, push });
    api = await startServer(h);
  });
  afterAll(async () => {
    await api?.close();
    await h?.close();
  });

  const conversationOf = async (a: SignedIn, b: SignedIn | { id: string }) => {
    const otherId = "user" in b ? b.user.id : b.id;
    const res = await api.call<Body<Conversation>>("POST", "/api/v1/chat/conversations", {
      token: a.accessToken,
      body: { other_user_id: otherId },
    });
    expect(res.status).toBe(201);

    return res.body.data;
  };
  const send = (who: SignedIn, conversationId: string, body: Record<string, unknown>) =>
    api.call<Body<Message>>("POST", `/api/v1/chat/conversations/${conversationId}/messages`, {
      token: who.accessToken,
      body,
    });
  const page = (who: SignedIn, conversationId: string, query = "") =>
    api.call<Body<Message[]>>("GET", `/api/v1/chat/conversations/${conversationId}/messages${query}`, {
      token: who.accessToken,
    });
  /** Delivers every due outbox event (earlier tests leave theirs too). */
  const deliverAll = async () => {
    while ((await h.runOutboxOnce({ batchSize: 200 })).claimed > 0) {
      // next batch
    }
  };
  const count = async (table: string, conversationId: string) =>
    (
      await h.db.sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${table} WHERE ${table === "outbox_events" ? "aggregate_id" : "conversation_id"} = $1`,
        [conversationId],
      )
    ).rows[0]?.n;

  describe("POST /chat/conversations", () => {
    it("creates the pair's conversation, and answers 201 with the same one from either side", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const first = await conversationOf(ada, bob);
      expect(first).toMatchObject({
        participant_ids: [ada.user.id, bob.user.id].sort(),
        last_message: null,
        unread_count: 0,
      });
      expect(Object.keys(first).sort()).toEqual([
        "id",
        "last_message",
        "participant_ids",
        "unread_count",
        "updated_at",
      ]);
      expect((await conversationOf(bob, ada)).id).toBe(first.id);
      expect((await conversationOf(ada, bob)).id).toBe(first.id);
      const { rows } = await h.db.sql.query("SELECT id FROM conversations WHERE id = $1", [first.id]);
      expect(rows).toHaveLength(1);
    });

    it("answers 422 for oneself or a missing other_user_id, 404 for an unknown, malformed or deleted user, 401 without a token", async () => {
      const ada = await h.signIn();
      const gone = await h.createUser({ status: "deleted" });
      const self = await api.call<Body<null>>("POST", "/api/v1/chat/conversations", {
        token: ada.accessToken,
        body: { other_user_id: ada.user.id },
      });
      expect(self.status).toBe(422);
      expect(self.body.error?.code).toBe("validation_failed");
      const missing = await api.call("POST", "/api/v1/chat/conversations", {
        token: ada.accessToken,
        body: {},
      });
      expect(missing.status).toBe(422);
      for (const id of [h.runtime.ids.next(), "not-a-uuid", gone.id]) {
        const res = await api.call<Body<null>>("POST", "/api/v1/chat/conversations", {
          token: ada.accessToken,
          body: { other_user_id: id },
        });
        expect(res.status, id).toBe(404);
        expect(res.body.error?.code).toBe("not_found");
      }
      expect(
        (await api.call("POST", "/api/v1/chat/conversations", { body: { other_user_id: gone.id } })).status,
      ).toBe(401);
    });

    it("answers 403 when either user blocked the other, and creates nothing", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      await h.runtime.community.repos.blocks.block(bob.user.id, ada.user.id, h.clock.now());
      for (const [from, to] of [
        [ada, bob],
        [bob, ada],
      ] as const) {
        const res = await api.call<Body<null>>("POST", "/api/v1/chat/conversations", {
          token: from.accessToken,
          body: { other_user_id: to.user.id },
        });
        expect(res.status).toBe(403);
        expect(res.body.error?.code).toBe("forbidden");
      }
      const { rows } = await h.db.sql.query(
        "SELECT 1 FROM conversations WHERE $1 IN (user_a_id, user_b_id)",
        [ada.user.id],
      );
      expect(rows).toHaveLength(0);
    });
  });

  describe("POST /chat/conversations/{id}/messages", () => {
    it("stores trimmed messages with seq 1, 2, 3 and message_type text by default", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const conversation = await conversationOf(ada, bob);
      const sent: Message[] = [];
      for (const [who, text] of [
        [ada, "  hello  "],
        [bob, "hi"],
        [ada, "how are you?"],
      ] as const) {
        const res = await send(who, conversation.id, { body: text });
        expect(res.status).toBe(201);
        sent.push(res.body.data);
      }
      expect(sent.map((m) => m.seq)).toEqual([1, 2, 3]);
      expect(sent[0]).toMatchObject({
        conversation_id: conversation.id,
        sender_id: ada.user.id,
        body: "hello",
        message_type: "text",
        client_message_id: null,
      });
      expect(Object.keys(sent[0] ?? {}).sort()).toEqual([
        "body",
        "client_message_id",
        "conversation_id",
        "created_at",
        "held",
        "id",
        "media",
        "message_type",
        "sender_id",
        "seq",
      ]);
      expect(sent[0]?.media).toEqual([]);
    });

    it("answers 422 for an empty, blank or too long body, a bad message_type or client_message_id", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const conversation = await conversationOf(ada, bob);
      for (const body of [
        {},
        { body: "" },
        { body: "   \n\t " },
        { body: "x".repeat(4001) },
        { body: "hi", message_type: "image" },
        { body: "hi", client_message_id: "" },
        { body: "hi", client_message_id: "c".repeat(101) },
      ]) {
        const res = await send(ada, conversation.id, body);
        expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(422);
        expect(res.body.error?.code).toBe("validation_failed");
      }
      expect((await send(ada, conversation.id, { body: "x".repeat(4000) })).status).toBe(201);
      expect(await count("chat_messages", conversation.id)).toBe(1);
    });

    it("answers 404 to a non-participant and for an unknown conversation, 401 without a token", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const eve = await h.signIn();
      const conversation = await conversationOf(ada, bob);
      for (const id of [conversation.id, h.runtime.ids.next(), "nope"]) {
        const res = await send(eve, id, { body: "let me in" });
        expect(res.status, id).toBe(404);
        expect(res.body.error?.code).toBe("not_found");
      }
      const anonymous = await api.call("POST", `/api/v1/chat/conversations/${conversation.id}/messages`, {
        body: { body: "hi" },
      });
      expect(anonymous.status).toBe(401);
      expect(await count("chat_messages", conversation.id)).toBe(0);
    });

    it("answers 403 once either participant blocks the other, storing nothing, and works again after unblocking", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const conversation = await conversationOf(ada, bob);
      expect((await send(ada, conversation.id, { body: "before" })).status).toBe(201);
      await h.runtime.community.repos.blocks.block(ada.user.id, bob.user.id, h.clock.now());
      for (const who of [ada, bob]) {
        const res = await send(who, conversation.id, { body: "blocked" });
        expect(res.status).toBe(403);
        expect(res.body.error?.code).toBe("forbidden");
      }
      expect(await count("chat_messages", conversation.id)).toBe(1);
      expect(await count("outbox_events", conversation.id)).toBe(1);
      await h.runtime.community.repos.blocks.unblock(ada.user.id, bob.user.id);
      const after = await send(bob, conversation.id, { body: "after" });
      expect(after.status).toBe(201);
      expect(after.body.data.seq).toBe(2);
    });

    it("answers a retried client_message_id with the first message and stores nothing new; another body is 409", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const conversation = await conversationOf(ada, bob);
      const first = await send(ada, conversation.id, { body: "once", client_message_id: "c-1" });
      expect(first.status).toBe(201);
      expect(first.headers.get("idempotent-replayed")).toBeNull();
      const retry = await send(ada, conversation.id, { body: " once ", client_message_id: "c-1" });
      expect(retry.status).toBe(201);
      expect(retry.headers.get("idempotent-replayed")).toBe("true");
      expect(retry.body.data).toEqual(first.body.data);
      // The same id from the other participant is their own message.
      const theirs = await send(bob, conversation.id, { body: "once", client_message_id: "c-1" });
      expect(theirs.body.data.seq).toBe(2);
      const conflict = await send(ada, conversation.id, { body: "something else", client_message_id: "c-1" });
      expect(conflict.status).toBe(409);
      expect(conflict.body.error?.code).toBe("idempotency_conflict");
      // Nothing was stored twice, and seq has no gap after the refused and replayed sends.
      const next = await send(ada, conversation.id, { body: "next" });
      expect(next.body.data.seq).toBe(3);
      expect(await count("chat_messages", conversation.id)).toBe(3);
      expect(await count("outbox_events", conversation.id)).toBe(3);
    });
  });

  describe("GET /chat/conversations/{id}/messages", () => {
    it("pages: the newest 50 by default, before=<seq> back, after=<seq> forward, ascending seq inside a page", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const conversation = await conversationOf(ada, bob);
      for (let index = 1; index <= 120; index += 1) {
        await send(index % 2 ? ada : bob, conversation.id, { body: `m${index}` });
      }
      const newest = await page(bob, conversation.id);
      expect(newest.status).toBe(200);
      expect(newest.body.data.map((m) => m.seq)).toEqual(Array.from({ length: 50 }, (_, i) => 71 + i));
      expect(newest.body.meta).toEqual({ limit: 50, has_more: true });
      const back = await page(bob, conversation.id, "?before=71");
      expect(back.body.data.map((m) => m.seq)).toEqual(Array.from({ length: 50 }, (_, i) => 21 + i));
      const oldest = await page(bob, conversation.id, "?before=21");
      expect(oldest.body.data.map((m) => m.seq)).toEqual(Array.from({ length: 20 }, (_, i) => 1 + i));
      expect(oldest.body.meta).toEqual({ limit: 50, has_more: false });
      const caughtUp: number[] = [];
      let after = 0;
      for (;;) {
        const res = await page(ada, conversation.id, `?after=${after}`);
        caughtUp.push(...res.body.data.map((m) => m.seq));
        if (!res.body.meta?.has_more) {
          break;
        }
        after = res.body.data.at(-1)?.seq ?? after;
      }
      expect(caughtUp).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
      expect((await page(ada, conversation.id, "?after=120")).body.data).toEqual([]);
    });

    it("answers 422 for bad cursors or both, 404 to a non-participant, 401 without a token", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const eve = await h.signIn();
      const conversation = await conversationOf(ada, bob);
      for (const query of ["?before=-1", "?after=x", "?after=1.5", "?before=5&after=1"]) {
        const res = await page(ada, conversation.id, query);
        expect(res.status, query).toBe(422);
        expect(res.body.error?.code).toBe("validation_failed");
      }
      expect((await page(eve, conversation.id)).status).toBe(404);
      expect((await api.call("GET", `/api/v1/chat/conversations/${conversation.id}/messages`)).status).toBe(
        401,
      );
    });
  });

  describe("GET /chat/conversations and POST …/read", () => {
    it("lists by last activity with last_message and unread counts that read markers clear", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const cyd = await h.signIn();
      const withBob = await conversationOf(ada, bob);
      h.clock.advance(1_000);
      const withCyd = await conversationOf(cyd, ada);
      h.clock.advance(1_000);
      await send(bob, withBob.id, { body: "one" });
      await send(bob, withBob.id, { body: "two" });
      h.clock.advance(1_000);
      await send(ada, withCyd.id, { body: "hey cyd" });

      const list = async (who: SignedIn) =>
        (
          await api.call<Body<Conversation[]>>("GET", "/api/v1/chat/conversations", {
            token: who.accessToken,
          })
        ).body.data;
      const adas = await list(ada);
      expect(adas.map((c) => c.id)).toEqual([withCyd.id, withBob.id]);
      expect(adas[0]).toMatchObject({ unread_count: 0, last_message: { body: "hey cyd", seq: 1 } });
      expect(adas[1]).toMatchObject({
        unread_count: 2,
        last_message: { body: "two", seq: 2, sender_id: bob.user.id },
      });
      expect((await list(cyd))[0]).toMatchObject({ id: withCyd.id, unread_count: 1 });
      // Sending implies having read what came before: Bob's own messages are not unread for him.
      expect((await list(bob))[0]).toMatchObject({ id: withBob.id, unread_count: 0 });

      h.clock.advance(1_000);
      const read = await api.call<Body<Record<string, unknown>>>(
        "POST",
        `/api/v1/chat/conversations/${withBob.id}/read`,
        { token: ada.accessToken },
      );
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual({
        conversation_id: withBob.id,
        user_id: ada.user.id,
        read_at: h.clock.now().toISOString(),
        last_read_seq: 2,
      });
      expect((await list(ada)).find((c) => c.id === withBob.id)?.unread_count).toBe(0);
      await send(bob, withBob.id, { body: "three" });
      expect((await list(ada)).find((c) => c.id === withBob.id)?.unread_count).toBe(1);
      // Reading is not activity: the order stays the messages' order.
      expect((await list(ada)).map((c) => c.id)).toEqual([withBob.id, withCyd.id]);
      expect((await api.call("GET", "/api/v1/chat/conversations")).status).toBe(401);
    });

    it("keeps the read marker monotonic, and answers 404 to a non-participant and 401 without a token", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const eve = await h.signIn();
      const conversation = await conversationOf(ada, bob);
      await send(bob, conversation.id, { body: "one" });
      const path = `/api/v1/chat/conversations/${conversation.id}/read`;
      const first = await api.call<Body<{ last_read_seq: number; read_at: string }>>("POST", path, {
        token: ada.accessToken,
      });
      expect(first.body.data.last_read_seq).toBe(1);
      // A clock that went back (another server's) does not move read_at back either.
      h.clock.advance(-60_000);
      const again = await api.call<Body<{ last_read_seq: number; read_at: string }>>("POST", path, {
        token: ada.accessToken,
      });
      expect(again.body.data).toEqual(first.body.data);
      h.clock.advance(60_000);
      expect((await api.call<Body<null>>("POST", path, { token: eve.accessToken })).status).toBe(404);
      expect((await api.call("POST", path)).status).toBe(401);
      expect(
        (
          await api.call("POST", `/api/v1/chat/conversations/${h.runtime.ids.next()}/read`, {
            token: ada.accessToken,
          })
        ).status,
      ).toBe(404);
    });

    it("caps the list at the 50 most recently active conversations", async () => {
      const ada = await h.signIn();
      const ids: string[] = [];
      for (let index = 0; index < 52; index += 1) {
        const other = await h.signIn();
        h.clock.advance(10);
        ids.push((await conversationOf(other, ada)).id);
      }
      const res = await api.call<Body<Conversation[]>>("GET", "/api/v1/chat/conversations", {
        token: ada.accessToken,
      });
      expect(res.body.data.map((c) => c.id)).toEqual(ids.slice(2).reverse());
    });
  });

  describe("notifications of a new message", () => {
    it("writes an inbox row for the recipient and a push collapsed per conversation, none for the sender", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      await h.post("/api/v1/devices", { token: "bob-device", platform: "ios" }, { token: bob.accessToken });
      const conversation = await conversationOf(ada, bob);
      const sent = await send(ada, conversation.id, { body: "secret words" });
      push.clear();
      await deliverAll();
      const { rows } = await h.db.sql.query<{
        user_id: string;
        kind: string;
        title: string;
        body: string;
        data: Record<string, unknown>;
      }>("SELECT user_id, kind, title, body, data FROM notifications WHERE data->>'conversation_id' = $1", [
        conversation.id,
      ]);
      expect(rows).toEqual([
        {
          user_id: bob.user.id,
          kind: "message.sent",
          title: "New message",
          body: expect.stringContaining("sent you a message") as unknown as string,
          data: { conversation_id: conversation.id, message_id: sent.body.data.id, seq: 1 },
        },
      ]);
      expect(rows[0]?.body).not.toContain("secret");
      const pushes = push.sentTo("bob-device");
      expect(pushes).toHaveLength(1);
      expect(pushes[0]?.message.collapseKey).toBe(`conversation:${conversation.id}`);
    });

    it("sends no push to a recipient with a socket open on the conversation (the inbox row is still written)", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      await h.post(
        "/api/v1/devices",
        { token: "bob-watching", platform: "android" },
        { token: bob.accessToken },
      );
      const conversation = await conversationOf(ada, bob);
      const socket = await api.connect(conversation.id, bob.accessToken);
      await eventually(async () => {
        const { rows } = await h.db.sql.query("SELECT 1 FROM chat_connections WHERE user_id = $1", [
          bob.user.id,
        ]);

        return rows.length === 1;
      });
      await send(ada, conversation.id, { body: "you are here" });
      push.clear();
      await deliverAll();
      expect(push.sentTo("bob-watching")).toHaveLength(0);
      const { rows } = await h.db.sql.query("SELECT 1 FROM notifications WHERE user_id = $1", [bob.user.id]);
      expect(rows).toHaveLength(1);
      socket.close();
      await socket.closed;
      await eventually(async () => {
        const { rows: open } = await h.db.sql.query("SELECT 1 FROM chat_connections WHERE user_id = $1", [
          bob.user.id,
        ]);

        return open.length === 0;
      });
      await send(ada, conversation.id, { body: "now you are gone" });
      await deliverAll();
      expect(push.sentTo("bob-watching")).toHaveLength(1);
    });
  });

  describe.skipIf(!onPostgres)("concurrency (PostgreSQL only: parallel connections)", () => {
    it("makes one conversation from 20 parallel creates from both sides", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          api.call<Body<Conversation>>("POST", "/api/v1/chat/conversations", {
            token: (index % 2 ? ada : bob).accessToken,
            body: { other_user_id: (index % 2 ? bob : ada).user.id },
          }),
        ),
      );
      expect(answers.map((res) => res.status)).toEqual(Array(20).fill(201));
      expect(new Set(answers.map((res) => res.body.data.id)).size).toBe(1);
      const { rows } = await h.db.sql.query(
        "SELECT 1 FROM conversations WHERE $1 IN (user_a_id, user_b_id)",
        [ada.user.id],
      );
      expect(rows).toHaveLength(1);
    });

    it("stores one message for 10 parallel sends with one client_message_id, and answers all with it", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const conversation = await conversationOf(ada, bob);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          send(ada, conversation.id, { body: "only once", client_message_id: "dup" }),
        ),
      );
      expect(answers.map((res) => res.status)).toEqual(Array(10).fill(201));
      expect(new Set(answers.map((res) => res.body.data.id)).size).toBe(1);
      expect(answers.filter((res) => res.headers.get("idempotent-replayed") === "true")).toHaveLength(9);
      expect(await count("chat_messages", conversation.id)).toBe(1);
      expect(await count("outbox_events", conversation.id)).toBe(1);
      expect((await send(ada, conversation.id, { body: "next" })).body.data.seq).toBe(2);
    });

    it("gives 30 parallel sends from both sides the seqs 1 to 30, without a gap or a repeat", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const conversation = await conversationOf(ada, bob);
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, index) =>
          send(index % 2 ? ada : bob, conversation.id, { body: `p${index}` }),
        ),
      );
      expect(answers.map((res) => res.body.data.seq).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 30 }, (_, i) => i + 1),
      );
      const { rows } = await h.db.sql.query<{ last_seq: number }>(
        "SELECT last_seq FROM conversations WHERE id = $1",
        [conversation.id],
      );
      expect(rows[0]?.last_seq).toBe(30);
    });
  });
});
