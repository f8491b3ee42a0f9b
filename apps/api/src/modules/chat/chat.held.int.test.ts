import type { ConversationDto, MessageDto } from "@agora/contracts/chat";
import type { NotificationDto } from "@agora/contracts/notifications";
import { realtimeFrameTypes } from "@agora/contracts/realtime";
import { onPostgres } from "@agora/db/test/databases";
import { sleep } from "@agora/testing/eventually";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeOnFanOuts } from "../../../test/fan-outs";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";
import { startServer, type TestServer } from "../../../test/realtime";

type Body<T> = { data: T; meta: Record<string, unknown> | null; error: { code: string } | null };

describeOnFanOuts("held chat messages (a content filter's hold; $name fan-out)", ({ setup }) => {
  let h: Harness;
  let api: TestServer;
  let admin: SignedIn;
  let tag = 0;

  beforeAll(async () => {
    h = await createHarness({ seed: false, config: setup().config });
    api = await startServer(h, { pingIntervalMs: 300, sessionCheckMs: 200 });
    admin = await h.signIn({ role: "admin" });
  });
  afterAll(async () => {
    await api?.close();
    await h?.close();
  });

  /** A hold rule on messages with a word no other test uses (rules are global to the database). */
  const holdWord = async () => {
    tag += 1;
    const value = `heldword${"abcdefghij"[tag % 10]}${"klmnopqrst"[Math.floor(tag / 10) % 10]}`;
    const res = await api.call<Body<{ id: string }>>("POST", "/api/v1/admin/filters", {
      token: admin.accessToken,
      body: { match: "word", value, action: "hold", contexts: ["messages"] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);

    return value;
  };

  const pair = async () => {
    const ada = await h.signIn();
    const bob = await h.signIn();
    const res = await api.call<Body<{ id: string }>>("POST", "/api/v1/chat/conversations", {
      token: ada.accessToken,
      body: { other_user_id: bob.user.id },
    });
    expect(res.status).toBe(201);

    return { ada, bob, conversationId: res.body.data.id };
  };

  const send = async (who: SignedIn, conversationId: string, text: string, clientMessageId?: string) => {
    const res = await api.call<Body<MessageDto>>(
      "POST",
      `/api/v1/chat/conversations/${conversationId}/messages`,
      {
        token: who.accessToken,
        body:
          clientMessageId === undefined ? { body: text } : { body: text, client_message_id: clientMessageId },
      },
    );
    expect(res.status, JSON.stringify(h.logs.raw.filter((l) => l.includes("error")).slice(-2))).toBe(201);

    return res.body.data;
  };

  const history = async (who: SignedIn, conversationId: string, query = "") => {
    const res = await api.call<Body<MessageDto[]>>(
      "GET",
      `/api/v1/chat/conversations/${conversationId}/messages${query}`,
      { token: who.accessToken },
    );
    expect(res.status).toBe(200);

    return res.body.data;
  };

  const conversationOf = async (who: SignedIn, conversationId: string) => {
    const res = await api.call<Body<ConversationDto[]>>("GET", "/api/v1/chat/conversations", {
      token: who.accessToken,
    });
    expect(res.status).toBe(200);

    return { conversation: res.body.data.find((c) => c.id === conversationId), meta: res.body.meta };
  };

  const chatNotices = async (who: SignedIn) => {
    const res = await api.call<Body<NotificationDto[]>>("GET", "/api/v1/notifications", {
      token: who.accessToken,
    });
    expect(res.status).toBe(200);

    return res.body.data.filter((notice) => notice.kind === "message.sent");
  };

  const decide = (messageId: string, action: string) =>
    api.call<Body<unknown>>("POST", `/api/v1/admin/reports/targets/message/${messageId}/decision`, {
      token: admin.accessToken,
      body: { action },
    });

  it("is its sender's only until approved, then reaches the other participant as a new message", async () => {
    const value = await holdWord();
    const { ada, bob, conversationId } = await pair();
    const bobSocket = await api.connect(conversationId, bob.accessToken);
    const adaSocket = await api.connect(conversationId, ada.accessToken);
    const first = await send(ada, conversationId, "hello");
    await bobSocket.waitFor(realtimeFrameTypes.message, 1);
    await h.runOutboxOnce();
    expect(await chatNotices(bob)).toHaveLength(1);

    // Held: 201 to its sender, with a seq outside the sequence.
    const held = await send(ada, conversationId, `buy ${value} now`, "client-held-1");
    expect(held).toMatchObject({ held: true, body: `buy ${value} now`, client_message_id: "client-held-1" });
    expect(held.seq).toBeLessThan(1);
    // A retry answers the stored (held) message.
    expect(await send(ada, conversationId, `buy ${value} now`, "client-held-1")).toEqual(held);

    // The sender sees it (at the end of the newest page); the other participant nowhere.
    expect((await history(ada, conversationId)).map((m) => [m.id, m.held])).toEqual([
      [first.id, false],
      [held.id, true],
    ]);
    expect((await history(bob, conversationId)).map((m) => m.id)).toEqual([first.id]);
    // The moderator's view of it: the conversation's newest messages, then the held one.
    const view = await api.call<Body<{ messages: { id: string }[] }>>(
      "GET",
      `/api/v1/admin/reports/targets/message/${held.id}`,
      { token: admin.accessToken },
    );
    expect(view.status).toBe(200);
    expect(view.body.data.messages.map((m) => m.id)).toEqual([first.id, held.id]);
    expect(await history(bob, conversationId, "?after=0")).toHaveLength(1);
    expect(await history(bob, conversationId, `?after=${first.seq}`)).toEqual([]);
    expect((await history(bob, conversationId, "?before=2147483647")).map((m) => m.id)).toEqual([first.id]);
    const bobListed = await conversationOf(bob, conversationId);
    expect(bobListed.conversation?.last_message?.id).toBe(first.id);
    expect(bobListed.conversation?.unread_count).toBe(1);
    expect(bobListed.meta?.unread_count).toBe(1);
    await h.runOutboxOnce();
    const [notice] = await chatNotices(bob);
    expect(notice?.data).toMatchObject({ message_id: first.id, seq: first.seq });
    // The other participant cannot report what they cannot see; its sender can.
    const reported = await api.call<Body<unknown>>("POST", "/api/v1/reports", {
      token: bob.accessToken,
      body: { target_type: "message", target_id: held.id, category: "spam" },
    });
    expect(reported.status).toBe(404);
    // No frame of it reached the other participant's socket.
    await sleep(300);
    expect(bobSocket.messages().map((m) => m.id)).toEqual([first.id]);
    // The filter's report is open, filed with the message.
    const reports = await h.db.sql.query<{ source: string; status: string }>(
      "SELECT source, status FROM reports WHERE target_type = 'message' AND target_id = $1",
      [held.id],
    );
    expect(reports.rows).toEqual([{ source: "filter", status: "open" }]);

    // Bob writes meanwhile: the sequence goes on without the held message.
    const reply = await send(bob, conversationId, "anyone?");
    expect(reply.seq).toBe(first.seq + 1);
    await bobSocket.waitFor(realtimeFrameTypes.message, 2);
    const read = await api.call("POST", `/api/v1/chat/conversations/${conversationId}/read`, {
      token: ada.accessToken,
    });
    expect(read.status).toBe(200);

    // Approved: delivered as a new message, after everything the other participant had.
    const approved = await decide(held.id, "approve");
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    // Deciding again finds nothing open to decide (422) and moves nothing (the seqs below).
    expect((await decide(held.id, "approve")).status).toBe(422);
    const frames = await bobSocket.waitFor(realtimeFrameTypes.message, 3);
    expect(frames.at(-1)?.data).toMatchObject({ id: held.id, seq: reply.seq + 1, held: false });
    await adaSocket.waitFor(realtimeFrameTypes.message, 3);
    const caughtUp = await history(bob, conversationId, `?after=${reply.seq}`);
    expect(caughtUp.map((m) => [m.id, m.seq, m.held])).toEqual([[held.id, reply.seq + 1, false]]);
    // The sender sees its new seq on their next read.
    expect((await history(ada, conversationId)).map((m) => [m.id, m.seq])).toEqual([
      [first.id, first.seq],
      [reply.id, reply.seq],
      [held.id, reply.seq + 1],
    ]);
    const bobAfter = await conversationOf(bob, conversationId);
    expect(bobAfter.conversation?.last_message?.id).toBe(held.id);
    expect(bobAfter.conversation?.unread_count).toBe(1);
    expect(new Date(bobAfter.conversation?.updated_at ?? 0).getTime()).toBeGreaterThanOrEqual(
      new Date(reply.created_at).getTime(),
    );
    // Ada's read marker was at the newest message: her own released message is not unread to her.
    expect((await conversationOf(ada, conversationId)).conversation?.unread_count).toBe(0);

    // One notice (the chat notice of the conversation, updated in place), naming the released message.
    await h.runOutboxOnce();
    await h.runOutboxOnce();
    const notices = await chatNotices(bob);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.data).toMatchObject({ message_id: held.id, seq: reply.seq + 1 });
    const events = await h.db.sql.query<{ kind: string }>(
      "SELECT kind FROM outbox_events WHERE payload->>'message_id' = $1 OR payload->>'target_id' = $1 ORDER BY kind",
      [held.id],
    );
    expect(events.rows.map((row) => row.kind)).toEqual(["message.sent"]);
    // Now both can see it, so the other participant may report it.
    const reportedNow = await api.call<Body<unknown>>("POST", "/api/v1/reports", {
      token: bob.accessToken,
      body: { target_type: "message", target_id: held.id, category: "spam" },
    });
    expect(reportedNow.status).toBe(201);
    bobSocket.close();
    adaSocket.close();
  });

  it("a dismissal releases it as an approval does; a deletion keeps it from the other participant", async () => {
    const value = await holdWord();
    const { ada, bob, conversationId } = await pair();
    const dismissed = await send(ada, conversationId, `${value} one`);
    const removed = await send(ada, conversationId, `${value} two`);
    expect([dismissed.held, removed.held]).toEqual([true, true]);
    expect(removed.seq).not.toBe(dismissed.seq);
    expect((await history(ada, conversationId)).map((m) => m.id)).toEqual([dismissed.id, removed.id]);

    expect((await decide(dismissed.id, "dismiss")).status).toBe(200);
    expect((await decide(removed.id, "delete")).status).toBe(200);
    expect((await history(bob, conversationId)).map((m) => [m.id, m.seq])).toEqual([[dismissed.id, 1]]);
    expect((await history(ada, conversationId)).map((m) => [m.id, m.seq > 0])).toEqual([
      [dismissed.id, true],
      [removed.id, false],
    ]);
  });

  it.skipIf(!onPostgres)(
    "a release racing sends: seqs stay unique and gapless (PostgreSQL only: PGlite runs one connection)",
    async () => {
      const value = await holdWord();
      const { ada, bob, conversationId } = await pair();
      const held = await send(ada, conversationId, `${value} racing`);
      const [approved] = await Promise.all([
        decide(held.id, "approve"),
        ...Array.from({ length: 6 }, (_, index) => send(index % 2 ? ada : bob, conversationId, `m${index}`)),
      ]);
      expect(approved.status).toBe(200);
      const seen = await history(bob, conversationId);
      expect(seen.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(seen.map((m) => m.id)).toContain(held.id);
      const { rows } = await h.db.sql.query<{ last_seq: number }>(
        "SELECT last_seq FROM conversations WHERE id = $1",
        [conversationId],
      );
      expect(rows[0]?.last_seq).toBe(7);
    },
  );
});
