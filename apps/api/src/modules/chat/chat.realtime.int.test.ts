import type { MessageDto } from "@agora/contracts/chat";
import {
  realtimeCloseCodes,
  realtimeErrorCodes,
  realtimeFrameTypes,
  realtimeLimits,
} from "@agora/contracts/realtime";
import { createRepositories } from "@agora/db/repositories/index";
import { onPostgres } from "@agora/db/test/databases";
import { eventually, sleep } from "@agora/testing/eventually";
import { freePort } from "@agora/testing/processes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  describeOnFanOuts,
  natsMode,
  natsServerBinary,
  type SecondApi,
  startNatsServer,
  startSecondApi,
} from "../../../test/fan-outs";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";
import { startServer, type TestServer } from "../../../test/realtime";

type Body<T> = { data: T; error: { code: string } | null };
type Message = MessageDto;

/** Two members signed in on `h`, and their conversation (opened by the first through `api`). */
const pairOn = async (h: Harness, api: TestServer) => {
  const ada = await h.signIn();
  const bob = await h.signIn();
  const res = await api.call<Body<{ id: string }>>("POST", "/api/v1/chat/conversations", {
    token: ada.accessToken,
    body: { other_user_id: bob.user.id },
  });
  expect(res.status).toBe(201);

  return { ada, bob, conversationId: res.body.data.id };
};

/** `who` posts `text` to the conversation through `api`. */
const post = async (api: TestServer, who: SignedIn, conversationId: string, text: string) => {
  const res = await api.call<Body<Message>>("POST", `/api/v1/chat/conversations/${conversationId}/messages`, {
    token: who.accessToken,
    body: { body: text },
  });
  expect(res.status).toBe(201);

  return res.body.data;
};

describeOnFanOuts(
  "the realtime channel (a real ws client on a listening server; $name fan-out)",
  ({ setup }) => {
    let h: Harness;
    let api: TestServer;

    beforeAll(async () => {
      h = await createHarness({
        seed: false,
        config: { allowedOrigins: ["https://app.example.com"], ...setup().config },
      });
      api = await startServer(h, { pingIntervalMs: 300, sessionCheckMs: 200 });
    });
    afterAll(async () => {
      await api?.close();
      await h?.close();
    });

    const pair = () => pairOn(h, api);
    const send = (who: SignedIn, conversationId: string, text: string) =>
      post(api, who, conversationId, text);

    it("is documented: all six chat pairs, and the realtime route with its 101, its refusals and its frames", async () => {
      const doc = await api.call<{
        paths: Record<string, Record<string, { description: string; responses: Record<string, unknown> }>>;
      }>("GET", "/api/v1/openapi.json");
      const chat = Object.entries(doc.body.paths)
        .filter(([path]) => path.startsWith("/api/v1/chat/"))
        .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
        .sort();
      expect(chat).toEqual([
        "GET /api/v1/chat/conversations",
        "GET /api/v1/chat/conversations/{id}/messages",
        "GET /api/v1/chat/conversations/{id}/realtime",
        "POST /api/v1/chat/conversations",
        "POST /api/v1/chat/conversations/{id}/messages",
        "POST /api/v1/chat/conversations/{id}/read",
      ]);
      const realtime = doc.body.paths["/api/v1/chat/conversations/{id}/realtime"]?.get;
      expect(Object.keys(realtime?.responses ?? {}).sort()).toEqual([
        "101",
        "401",
        "403",
        "404",
        "422",
        "426",
        "429",
        "503",
      ]);
      for (const frame of [
        `"type": "${realtimeFrameTypes.message}"`,
        `"type": "${realtimeFrameTypes.read}"`,
        `"type": "${realtimeFrameTypes.pong}"`,
        `"type": "${realtimeFrameTypes.ping}"`,
        `"type": "${realtimeFrameTypes.typing}"`,
        `"type": "${realtimeFrameTypes.presence}"`,
        String(realtimeCloseCodes.frameTooLarge),
        String(realtimeCloseCodes.sessionEnded),
      ]) {
        expect(realtime?.description).toContain(frame);
      }
    });

    describe("refusals are plain HTTP responses in the envelope, never an upgrade", () => {
      it("answers 401 without or with a bad token, 404 to a non-participant or unknown conversation", async () => {
        const { conversationId } = await pair();
        const eve = await h.signIn();
        for (const [token, status, code] of [
          [undefined, 401, "unauthorized"],
          ["not-a-token", 401, "unauthorized"],
          [eve.accessToken, 404, "not_found"],
        ] as const) {
          const refusal = await api.refusal(conversationId, token);
          expect(refusal.status).toBe(status);
          expect(refusal.body).toMatchObject({ success: false, data: null, error: { code } });
          expect(refusal.headers["x-request-id"]).toBe((refusal.body as { request_id: string }).request_id);
        }
        expect((await api.refusal(h.runtime.ids.next(), eve.accessToken)).status).toBe(404);
        expect(api.realtime.size).toBe(0);
      });

      it("answers 403 for an Origin outside ALLOWED_ORIGINS; a listed Origin and no Origin (a native app) are admitted", async () => {
        const { ada, conversationId } = await pair();
        const refusal = await api.refusal(conversationId, ada.accessToken, {
          origin: "https://evil.example.com",
        });
        expect(refusal.status).toBe(403);
        expect(refusal.body).toMatchObject({ error: { code: "forbidden" } });
        const browser = await api.connect(conversationId, ada.accessToken, {
          origin: "https://app.example.com",
        });
        const native = await api.connect(conversationId, ada.accessToken);
        browser.close();
        native.close();
        await Promise.all([browser.closed, native.closed]);
      });

      it("answers a request without an upgrade with 426 upgrade_required", async () => {
        const { ada, conversationId } = await pair();
        const res = await api.call<Body<null>>(
          "GET",
          `/api/v1/chat/conversations/${conversationId}/realtime`,
          {
            token: ada.accessToken,
          },
        );
        expect(res.status).toBe(426);
        expect(res.body.error?.code).toBe("upgrade_required");
        expect(res.headers.get("upgrade")).toBe("websocket");
      });
    });

    it("pushes committed messages to both participants, the sender's other device too, in seq order, once each", async () => {
      const { ada, bob, conversationId } = await pair();
      const adaPhone = await api.connect(conversationId, ada.accessToken);
      const adaLaptop = await api.connect(conversationId, ada.accessToken);
      const bobPhone = await api.connect(conversationId, bob.accessToken);
      const sent: Message[] = [];
      for (let index = 1; index <= 6; index += 1) {
        sent.push(await send(index % 2 ? ada : bob, conversationId, `m${index}`));
      }
      for (const socket of [adaPhone, adaLaptop, bobPhone]) {
        await socket.waitFor(realtimeFrameTypes.message, 6);
        await sleep(50);
        expect(socket.messages()).toEqual(
          sent.map((message) => ({
            ...message,
            conversation_id: conversationId,
            message_type: "text",
            client_message_id: null,
            created_at: expect.any(String),
          })),
        );
      }
      for (const socket of [adaPhone, adaLaptop, bobPhone]) {
        socket.close();
      }
    });

    it("sends the other participant a read frame when the marker moves", async () => {
      const { ada, bob, conversationId } = await pair();
      await send(ada, conversationId, "read me");
      const adaSocket = await api.connect(conversationId, ada.accessToken);
      const read = await api.call<Body<Record<string, unknown>>>(
        "POST",
        `/api/v1/chat/conversations/${conversationId}/read`,
        {
          token: bob.accessToken,
        },
      );
      const [frame] = await adaSocket.waitFor(realtimeFrameTypes.read);
      expect(frame?.data).toEqual(read.body.data);
      expect(frame?.data).toMatchObject({ user_id: bob.user.id, last_read_seq: 1 });
      adaSocket.close();
    });

    it("answers a ping frame with pong, and an unknown frame with an error frame, staying open", async () => {
      const { ada, conversationId } = await pair();
      const socket = await api.connect(conversationId, ada.accessToken);
      socket.ws.send(JSON.stringify({ type: realtimeFrameTypes.ping }));
      await socket.waitFor(realtimeFrameTypes.pong);
      socket.ws.send(JSON.stringify({ type: "shout" }));
      socket.ws.send("not json");
      const errors = await socket.waitFor(realtimeFrameTypes.error, 2);
      expect(errors[0]?.data).toMatchObject({ code: realtimeErrorCodes.unsupportedFrame });
      socket.ws.send(JSON.stringify({ type: realtimeFrameTypes.ping }));
      await socket.waitFor(realtimeFrameTypes.pong, 2);
      expect(socket.ws.readyState).toBe(socket.ws.OPEN);
      socket.close();
    });

    it("closes the socket with 1009 on a frame over 1 KiB, and with 1003 on a binary frame", async () => {
      const { ada, conversationId } = await pair();
      const big = await api.connect(conversationId, ada.accessToken);
      big.ws.send(
        JSON.stringify({ type: realtimeFrameTypes.ping, pad: "x".repeat(realtimeLimits.maxFrameBytes) }),
      );
      expect((await big.closed).code).toBe(realtimeCloseCodes.frameTooLarge);
      const exact = await api.connect(conversationId, ada.accessToken);
      exact.ws.send(
        JSON.stringify({ type: realtimeFrameTypes.ping, pad: "x".repeat(realtimeLimits.maxFrameBytes - 27) }),
      );
      await exact.waitFor(realtimeFrameTypes.pong);
      exact.close();
      const binary = await api.connect(conversationId, ada.accessToken);
      binary.ws.send(Buffer.from([1, 2, 3]));
      expect((await binary.closed).code).toBe(realtimeCloseCodes.binaryFrame);
    });

    it("pings every interval and terminates a socket that does not answer", async () => {
      const { ada, conversationId } = await pair();
      const silent = await api.connect(conversationId, ada.accessToken, { autoPong: false });
      const polite = await api.connect(conversationId, ada.accessToken);
      let pings = 0;
      polite.ws.on("ping", () => {
        pings += 1;
      });
      const closed = await silent.closed;
      expect(closed.code).toBe(1006);
      expect(pings).toBeGreaterThanOrEqual(1);
      await sleep(700);
      expect(polite.ws.readyState).toBe(polite.ws.OPEN);
      polite.close();
    });

    it("replays every message after `after` in order on a reconnect, none twice, then goes live", async () => {
      const { ada, bob, conversationId } = await pair();
      const bobSocket = await api.connect(conversationId, bob.accessToken);
      await send(ada, conversationId, "seen 1");
      await send(ada, conversationId, "seen 2");
      await bobSocket.waitFor(realtimeFrameTypes.message, 2);
      const lastSeen = bobSocket.messages().at(-1)?.seq ?? 0;
      bobSocket.close();
      await bobSocket.closed;
      for (let index = 1; index <= 70; index += 1) {
        await send(index % 3 ? ada : bob, conversationId, `missed ${index}`);
      }
      const again = await api.connect(conversationId, bob.accessToken, { after: lastSeen });
      await again.waitFor(realtimeFrameTypes.message, 70);
      await send(ada, conversationId, "live");
      await again.waitFor(realtimeFrameTypes.message, 71);
      await sleep(100);
      expect(again.messages().map((m) => m.seq)).toEqual(
        Array.from({ length: 71 }, (_, i) => lastSeen + 1 + i),
      );
      expect(again.messages().at(-1)?.body).toBe("live");
      again.close();
      // Without `after`, a socket starts at the newest message.
      const fresh = await api.connect(conversationId, bob.accessToken);
      await sleep(200);
      expect(fresh.messages()).toEqual([]);
      fresh.close();
    });

    it("closes the sockets of a session that logs out, of a suspended user and of a deleted user with 4401", async () => {
      const { ada, bob, conversationId } = await pair();
      const admin = await h.signIn({ role: "admin" });
      const cyd = await h.signIn();
      const withCyd = await api.call<Body<{ id: string }>>("POST", "/api/v1/chat/conversations", {
        token: cyd.accessToken,
        body: { other_user_id: ada.user.id },
      });
      const adaSocket = await api.connect(conversationId, ada.accessToken);
      const bobSocket = await api.connect(conversationId, bob.accessToken);
      const cydSocket = await api.connect(withCyd.body.data.id, cyd.accessToken);

      expect((await h.post("/api/v1/auth/logout", { refresh_token: ada.refreshToken })).status).toBeLessThan(
        300,
      );
      const adaClosed = await adaSocket.closed;
      expect(adaClosed.code).toBe(realtimeCloseCodes.sessionEnded);

      const suspended = await h.patch(
        `/api/v1/admin/users/${bob.user.id}/status`,
        { status: "suspended" },
        { token: admin.accessToken },
      );
      expect(suspended.status).toBe(200);
      expect((await bobSocket.closed).code).toBe(realtimeCloseCodes.sessionEnded);

      expect((await h.delete("/api/v1/auth/me", { token: cyd.accessToken })).status).toBeLessThan(300);
      expect((await cydSocket.closed).code).toBe(realtimeCloseCodes.sessionEnded);
    });

    it("tells no one about an upgrade it refused, and forgets closed sockets' presence", async () => {
      const { ada, conversationId } = await pair();
      const socket = await api.connect(conversationId, ada.accessToken);
      await eventually(
        async () =>
          (await h.db.sql.query("SELECT 1 FROM chat_connections WHERE user_id = $1", [ada.user.id])).rows
            .length === 1,
      );
      socket.close();
      await socket.closed;
      await eventually(
        async () =>
          (await h.db.sql.query("SELECT 1 FROM chat_connections WHERE user_id = $1", [ada.user.id])).rows
            .length === 0,
      );
    });
  },
);

describe("the session check", () => {
  it("never closes a socket whose session is live, also one that opened while a check was running", async () => {
    const h = await createHarness({ seed: false });
    const api = await startServer(h, { sessionCheckMs: 1 });
    try {
      const ada = await h.signIn();
      const members = await Promise.all(Array.from({ length: 40 }, () => h.signIn()));
      const conversations = await Promise.all(
        members.map((member) =>
          api.call<Body<{ id: string }>>("POST", "/api/v1/chat/conversations", {
            token: member.accessToken,
            body: { other_user_id: ada.user.id },
          }),
        ),
      );
      const sockets = [];
      for (let round = 0; round < 4; round += 1) {
        sockets.push(
          ...(await Promise.all(
            members
              .slice(round * 10, round * 10 + 10)
              .map((member, index) =>
                api.connect(conversations[round * 10 + index]?.body.data.id ?? "", member.accessToken),
              ),
          )),
        );
        await sleep(20);
      }
      await sleep(300);
      expect(sockets.map((socket) => socket.ws.readyState)).toEqual(sockets.map((socket) => socket.ws.OPEN));
      for (const socket of sockets) {
        socket.close();
      }
    } finally {
      await api.close();
      await h.close();
    }
  });
});

describe("shutting the realtime channel down", () => {
  it("closes every socket with 1001 before the server stops", async () => {
    const h = await createHarness({ seed: false });
    const api = await startServer(h);
    try {
      const { ada, bob, conversationId } = await pairOn(h, api);
      const sockets = await Promise.all([
        api.connect(conversationId, ada.accessToken),
        api.connect(conversationId, bob.accessToken),
      ]);
      await api.realtime.close();
      for (const socket of sockets) {
        expect((await socket.closed).code).toBe(realtimeCloseCodes.serverShutdown);
      }
      const { rows } = await h.db.sql.query("SELECT 1 FROM chat_connections");
      expect(rows).toHaveLength(0);
    } finally {
      await api.close();
      await h.close();
    }
  });
});

describe.skipIf(!onPostgres)(
  "the LISTEN connection (PostgreSQL only: a dedicated listener connection)",
  () => {
    it("reconnects after its connection dies and catches up, so an open socket misses nothing", async () => {
      const h = await createHarness({ seed: false });
      const api = await startServer(h);
      try {
        const { ada, bob, conversationId } = await pairOn(h, api);
        const socket = await api.connect(conversationId, bob.accessToken);
        const say = (text: string) => post(api, ada, conversationId, text);
        await say("before");
        await socket.waitFor(realtimeFrameTypes.message, 1);
        // What a database restart does to the listener: its backend is terminated.
        const listeners = `SELECT pid FROM pg_stat_activity WHERE application_name = 'agora-chat-listener' AND datname = current_database()`;
        await h.db.sql.query(`SELECT pg_terminate_backend(pid) FROM (${listeners}) l`);
        // Sent while nobody listens (the first reconnect waits 250 ms).
        for (let index = 1; index <= 5; index += 1) {
          await say(`during ${index}`);
        }
        await eventually(async () => (await h.db.sql.query(listeners)).rows.length === 1);
        // No signal of those five was heard: only the listener's catch-up after reconnecting brings them.
        await socket.waitFor(realtimeFrameTypes.message, 6);
        await say("after");
        await socket.waitFor(realtimeFrameTypes.message, 7);
        await sleep(100);
        expect(socket.messages().map((m) => m.body)).toEqual([
          "before",
          "during 1",
          "during 2",
          "during 3",
          "during 4",
          "during 5",
          "after",
        ]);
        expect(socket.messages().map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
        socket.close();
      } finally {
        await api.close();
        await h.close();
      }
    });
  },
);

const natsServer = natsServerBinary();

describe.skipIf(natsServer === undefined)(
  "the NATS connection (REALTIME_FANOUT=nats, on a nats-server of the test's own, restarted)",
  () => {
    it("reconnects after the broker restarts and catches up, so an open socket misses nothing", async () => {
      const port = await freePort();
      const url = `nats://127.0.0.1:${port}`;
      const startBroker = () => startNatsServer(natsServer ?? "nats-server", port);
      let broker = await startBroker();
      const h = await createHarness({ seed: false, config: natsMode(url).setup().config });
      const api = await startServer(h);
      try {
        const { ada, bob, conversationId } = await pairOn(h, api);
        const socket = await api.connect(conversationId, bob.accessToken);
        const say = (text: string) => post(api, ada, conversationId, text);
        await say("before");
        await socket.waitFor(realtimeFrameTypes.message, 1);

        // The broker goes away (a restart, a network cut).
        broker.child.kill("SIGTERM");
        await broker.exited;
        // A message committed meanwhile whose signal never reaches the broker: written by
        // repositories that publish nothing (they pg_notify, and in this mode nobody LISTENs).
        const silent = createRepositories(h.db.sql, h.db.prisma, h.runtime.ids);
        const id = h.runtime.ids.next();
        const sent = await silent.messages.send(
          {
            id,
            conversationId,
            senderId: ada.user.id,
            body: "during",
            messageType: "text",
            clientMessageId: null,
            createdAt: new Date(),
          },
          {
            kind: "message.sent",
            aggregateType: "conversation",
            aggregateId: conversationId,
            payload: { conversation_id: conversationId, message_id: id, sender_id: ada.user.id },
          },
        );
        expect(sent.status).toBe("sent");
        await sleep(300);
        expect(socket.messages().map((m) => m.body)).toEqual(["before"]);

        // Back: the connection reconnects and the listener resyncs, which alone brings "during".
        broker = await startBroker();
        await socket.waitFor(realtimeFrameTypes.message, 2, 15_000);
        await say("after");
        await socket.waitFor(realtimeFrameTypes.message, 3);
        await sleep(100);
        expect(socket.messages().map((m) => [m.seq, m.body])).toEqual([
          [1, "before"],
          [2, "during"],
          [3, "after"],
        ]);
        socket.close();
      } finally {
        await api.close();
        await h.close();
        broker.child.kill("SIGKILL");
      }
    });
  },
);

describeOnFanOuts(
  "two API processes on one database (PostgreSQL only: a second process; $name fan-out)",
  ({ setup }) => {
    it("deliver each other's messages to their sockets, and SIGTERM closes the other's sockets with 1001", async () => {
      const fanOut = setup();
      const h = await createHarness({ seed: false, config: fanOut.config });
      const here = await startServer(h);
      let other: SecondApi | undefined;
      try {
        other = await startSecondApi(h, fanOut);
        const { child, exited, port } = other;
        const { ada, bob, conversationId } = await pairOn(h, here);
        const remote = await other.connect(conversationId, bob.accessToken);
        const local = await here.connect(conversationId, ada.accessToken);

        // Sent through this process: pushed by the other one to Bob's socket there.
        const sentHere = await post(here, ada, conversationId, "from process A");
        await eventually(() => remote.frames.some((frame) => frame.data?.id === sentHere.id));
        // Sent through the other process: pushed by this one to Ada's socket here.
        const sentThere = await fetch(
          `http://127.0.0.1:${port}/api/v1/chat/conversations/${conversationId}/messages`,
          {
            method: "POST",
            headers: { authorization: `Bearer ${bob.accessToken}`, "content-type": "application/json" },
            body: JSON.stringify({ body: "from process B" }),
          },
        );
        expect(sentThere.status).toBe(201);
        await local.waitFor(realtimeFrameTypes.message, 2);
        expect(local.messages().map((m) => [m.seq, m.body])).toEqual([
          [1, "from process A"],
          [2, "from process B"],
        ]);
        // Presence frames come too (chat.presence.int.test.ts): the messages, each once, in order.
        await remote.waitFor(realtimeFrameTypes.message, 2, 15_000);
        expect(remote.messages().map((message) => message.seq)).toEqual([1, 2]);

        child.kill("SIGTERM");
        expect((await remote.closed).code).toBe(realtimeCloseCodes.serverShutdown);
        expect(await exited).toBe(0);
        local.close();
      } finally {
        other?.child.kill("SIGKILL");
        await here.close();
        await h.close();
      }
    });
  },
  { postgresOnly: true },
);
