// The realtime upgrade path: the socket caps (429 per session on a conversation, per session and per
// user; 1013 when the process is full) and their counter on /metrics, and the access token offered
// as a subprotocol (browsers), which must never be echoed nor logged.
import { existsSync } from "node:fs";
import type { MessageDto } from "@agora/contracts/chat";
import { createAgoraClient } from "@agora/contracts/client";
import { realtimeCloseCodes, realtimeFrameTypes, realtimeProtocols } from "@agora/contracts/realtime";
import { eventually } from "@agora/testing/eventually";
import { freePort } from "@agora/testing/processes";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import NodeWebSocket from "ws";
import { createHarness, type Harness, type SignedIn } from "../../../../test/harness";
import { startServer, type TestServer, type TestSocket } from "../../../../test/realtime";

type Body<T> = { data: T; error: { code: string; message: string } | null };

/** The value of `agora_realtime_refused_upgrades_total{reason}` on /metrics. */
const refusals = async (h: Harness, reason: string): Promise<number> => {
  const text = await (await h.fetch("/metrics")).text();
  const series = `agora_realtime_refused_upgrades_total{reason="${reason}"} `;
  const line = text.split("\n").find((candidate) => candidate.startsWith(series));

  return line === undefined ? Number.NaN : Number(line.slice(series.length));
};

const conversationOf = async (api: TestServer, one: SignedIn, other: SignedIn): Promise<string> => {
  const res = await api.call<Body<{ id: string }>>("POST", "/api/v1/chat/conversations", {
    token: one.accessToken,
    body: { other_user_id: other.user.id },
  });
  expect(res.status).toBe(201);

  return res.body.data.id;
};

const closeAll = async (sockets: TestSocket[]) => {
  for (const socket of sockets) {
    socket.close();
  }
  await Promise.all(sockets.map((socket) => socket.closed));
};

describe("the realtime socket caps", () => {
  let h: Harness;
  let api: TestServer;

  beforeAll(async () => {
    h = await createHarness({
      seed: false,
      config: { realtimeSockets: { perConversation: 2, perSession: 3, perUser: 4, max: 1_000 } },
    });
    api = await startServer(h);
  });
  afterAll(async () => {
    await api?.close();
    await h?.close();
  });

  it("refuses a session's socket past its cap on the conversation, then past the session's, with 429 and Retry-After", async () => {
    const ada = await h.signIn();
    const [bob, cyd, dan] = [await h.signIn(), await h.signIn(), await h.signIn()];
    const withBob = await conversationOf(api, ada, bob);
    const withCyd = await conversationOf(api, ada, cyd);
    const withDan = await conversationOf(api, ada, dan);
    const before = { conversation: await refusals(h, "conversation"), session: await refusals(h, "session") };

    const open = [await api.connect(withBob, ada.accessToken), await api.connect(withBob, ada.accessToken)];
    const third = await api.refusal(withBob, ada.accessToken);
    expect(third.status).toBe(429);
    expect(third.headers["retry-after"]).toBe("30");
    expect(third.body).toMatchObject({
      success: false,
      data: null,
      error: { code: "rate_limited", message: expect.stringContaining("this conversation") },
    });
    // Bob's sockets on the same conversation are his own.
    open.push(await api.connect(withBob, bob.accessToken));

    open.push(await api.connect(withCyd, ada.accessToken));
    const fourth = await api.refusal(withDan, ada.accessToken);
    expect(fourth.status).toBe(429);
    expect(fourth.body).toMatchObject({
      error: { code: "rate_limited", message: expect.stringContaining("session") },
    });
    expect(await refusals(h, "conversation")).toBe(before.conversation + 1);
    expect(await refusals(h, "session")).toBe(before.session + 1);

    // A closed socket frees its place.
    const first = open.shift();
    first?.close();
    await first?.closed;
    const again = await eventually(() => api.connect(withDan, ada.accessToken), { retryErrors: true });
    expect(again.ws.readyState).toBe(NodeWebSocket.OPEN);
    await closeAll([...open, again]);
  });

  it("refuses a user's socket past the user's cap, whichever session opens it", async () => {
    const ada = await h.signIn();
    const adaTablet = await h.openSession(ada.user);
    const others = [await h.signIn(), await h.signIn(), await h.signIn()];
    const conversations = [];
    for (const other of others) {
      conversations.push(await conversationOf(api, ada, other));
    }
    const before = await refusals(h, "user");
    const [c1, c2, c3] = conversations as [string, string, string];

    const open = [
      await api.connect(c1, ada.accessToken),
      await api.connect(c2, ada.accessToken),
      await api.connect(c3, ada.accessToken),
      await api.connect(c1, adaTablet.accessToken),
    ];
    const refusal = await api.refusal(c2, adaTablet.accessToken);
    expect(refusal.status).toBe(429);
    expect(refusal.body).toMatchObject({
      error: { code: "rate_limited", message: expect.stringContaining("user") },
    });
    expect(await refusals(h, "user")).toBe(before + 1);
    // Nothing of the refused upgrade remains: one presence row per open socket.
    await eventually(
      async () =>
        (await h.db.sql.query("SELECT 1 FROM chat_connections WHERE user_id = $1", [ada.user.id])).rows
          .length === 4,
    );
    expect(api.realtime.size).toBeGreaterThanOrEqual(4);
    await closeAll(open);
  });

  it("checks the caps after the route's own checks: a bad token is 401, not 429", async () => {
    const ada = await h.signIn();
    const bob = await h.signIn();
    const id = await conversationOf(api, ada, bob);
    const open = [await api.connect(id, ada.accessToken), await api.connect(id, ada.accessToken)];
    expect((await api.refusal(id, "not-a-token")).status).toBe(401);
    await closeAll(open);
  });
});

describe("a full process", () => {
  it("completes the upgrade and closes it at once with 1013, counted on /metrics", async () => {
    const h = await createHarness({
      seed: false,
      config: { realtimeSockets: { perConversation: 4, perSession: 50, perUser: 100, max: 2 } },
    });
    const api = await startServer(h);
    try {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const id = await conversationOf(api, ada, bob);
      const open = [await api.connect(id, ada.accessToken), await api.connect(id, bob.accessToken)];
      const extra = await api.connect(id, bob.accessToken);
      const closed = await extra.closed;
      expect(closed).toEqual({ code: realtimeCloseCodes.tooSlow, reason: "server full: try again later" });
      expect(await refusals(h, "process")).toBe(1);
      expect(api.realtime.size).toBe(2);

      // A place freed is a place taken again.
      const first = open.shift();
      first?.close();
      await first?.closed;
      const again = await eventually(
        async () => {
          const socket = await api.connect(id, ada.accessToken);
          const quick = await Promise.race([socket.closed, new Promise((done) => setTimeout(done, 200))]);
          if (quick) {
            throw new Error("closed again");
          }

          return socket;
        },
        { retryErrors: true },
      );
      expect(again.ws.readyState).toBe(NodeWebSocket.OPEN);
      await closeAll([...open, again]);
    } finally {
      await api.close();
      await h.close();
    }
  });
});

describe("the access token as a subprotocol (browsers)", () => {
  let h: Harness;
  let api: TestServer;

  beforeAll(async () => {
    h = await createHarness({ seed: false, config: { allowedOrigins: ["https://app.example.com"] } });
    api = await startServer(h);
  });
  afterAll(async () => {
    await api?.close();
    await h?.close();
  });

  const offer = (token: string) => [realtimeProtocols.channel, `${realtimeProtocols.bearerPrefix}${token}`];

  it("opens with `agora.v1, bearer.<token>`, answers `agora.v1` and pushes messages", async () => {
    const ada = await h.signIn();
    const bob = await h.signIn();
    const id = await conversationOf(api, ada, bob);
    const socket = await api.connect(id, undefined, {
      protocols: offer(bob.accessToken),
      origin: "https://app.example.com",
    });
    expect(socket.ws.protocol).toBe(realtimeProtocols.channel);

    const sent = await api.call<Body<{ seq: number }>>("POST", `/api/v1/chat/conversations/${id}/messages`, {
      token: ada.accessToken,
      body: { body: "over the subprotocol" },
    });
    expect(sent.status).toBe(201);
    await socket.waitFor(realtimeFrameTypes.message);
    expect(socket.messages().map((message) => message.body)).toEqual(["over the subprotocol"]);
    await closeAll([socket]);
  });

  it("makes the same checks: a bad token 401, a stranger 404, a foreign Origin 403, a token without agora.v1 401", async () => {
    const ada = await h.signIn();
    const bob = await h.signIn();
    const eve = await h.signIn();
    const id = await conversationOf(api, ada, bob);
    for (const [protocols, origin, status, code] of [
      [offer("not-a-token"), undefined, 401, "unauthorized"],
      [offer(eve.accessToken), undefined, 404, "not_found"],
      [offer(ada.accessToken), "https://evil.example.com", 403, "forbidden"],
      [[`${realtimeProtocols.bearerPrefix}${ada.accessToken}`], undefined, 401, "unauthorized"],
    ] as const) {
      const refusal = await api.refusal(id, undefined, {
        protocols: [...protocols],
        ...(origin ? { origin } : {}),
      });
      expect(refusal.status).toBe(status);
      expect(refusal.body).toMatchObject({ error: { code } });
      expect(JSON.stringify(refusal)).not.toContain(ada.accessToken);
    }
    expect(api.realtime.size).toBe(0);
  });

  it("selects agora.v1 for a client sending the header too, and never echoes a token", async () => {
    const ada = await h.signIn();
    const bob = await h.signIn();
    const id = await conversationOf(api, ada, bob);
    const plain = await api.connect(id, ada.accessToken, { protocols: [realtimeProtocols.channel] });
    expect(plain.ws.protocol).toBe(realtimeProtocols.channel);
    // The header wins: the subprotocol's (bad) token is not what is checked.
    const both = await api.connect(id, ada.accessToken, { protocols: offer("not-a-token") });
    expect(both.ws.protocol).toBe(realtimeProtocols.channel);
    const headerOnly = await api.connect(id, ada.accessToken);
    expect(headerOnly.ws.protocol).toBe("");
    await closeAll([plain, both, headerOnly]);
  });

  it("never logs the token: access lines, refusals and errors carry none of it", async () => {
    const ada = await h.signIn();
    const bob = await h.signIn();
    const id = await conversationOf(api, ada, bob);
    const from = h.logs.raw.length;
    const socket = await api.connect(id, undefined, { protocols: offer(ada.accessToken) });
    await closeAll([socket]);
    await api.refusal(id, undefined, {
      protocols: offer(ada.accessToken),
      origin: "https://evil.example.com",
    });
    const stranger = await h.signIn();
    await api.refusal(id, undefined, { protocols: offer(stranger.accessToken) });

    const lines = h.logs.raw.slice(from);
    const upgrades = lines.filter((line) => line.includes("/realtime"));
    expect(upgrades.length).toBeGreaterThanOrEqual(3);
    for (const token of [ada.accessToken, stranger.accessToken]) {
      // Neither the claims nor the signature (the header segment is the same in every token).
      for (const part of token.split(".").slice(1)) {
        expect(lines.filter((line) => line.includes(part))).toEqual([]);
      }
    }
  });
});

describe("the typed client's realtime helper in a browser-like runtime (a document, no WebSocket headers)", () => {
  it("offers the token as the subprotocol pair, opens and delivers", async () => {
    const h = await createHarness({ seed: false });
    const api = await startServer(h);
    const offers: Array<[string, unknown]> = [];
    // A WebSocket that, like a browser's, takes only the URL and subprotocols.
    class BrowserWebSocket extends NodeWebSocket {
      constructor(url: string, protocols?: string | string[]) {
        offers.push([url, protocols]);
        super(url, protocols);
      }
    }
    vi.stubGlobal("document", {});
    vi.stubGlobal("WebSocket", BrowserWebSocket);
    try {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const id = await conversationOf(api, ada, bob);
      const received: MessageDto[] = [];
      const channel = createAgoraClient({
        baseUrl: `http://127.0.0.1:${api.port}`,
        getAccessToken: () => bob.accessToken,
      }).chat.connect(id, { onMessage: (message) => void received.push(message) });
      try {
        await eventually(() => channel.status === "open");
        await api.call("POST", `/api/v1/chat/conversations/${id}/messages`, {
          token: ada.accessToken,
          body: { body: "to the browser" },
        });
        await eventually(() => received.length === 1);
        expect(received[0]?.body).toBe("to the browser");
        expect(offers).toEqual([
          [
            expect.stringMatching(/\/realtime$/),
            [realtimeProtocols.channel, `${realtimeProtocols.bearerPrefix}${bob.accessToken}`],
          ],
        ]);
      } finally {
        channel.close();
      }
    } finally {
      vi.unstubAllGlobals();
      await api.close();
      await h.close();
    }
  });
});

// Chromium comes from the OS (Debian's `chromium`; CHROMIUM_PATH overrides); without it this skips.
const executablePath = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
  (candidate): candidate is string => candidate !== undefined && candidate !== "" && existsSync(candidate),
);
if (!executablePath) {
  process.stdout.write(
    "realtime browser test skipped: no Chromium (apt-get install chromium, or set CHROMIUM_PATH)\n",
  );
}

describe.skipIf(!executablePath)("a page in headless Chromium", () => {
  let h: Harness;
  let api: TestServer;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    // A port free now: the page's origin, hence ALLOWED_ORIGINS, must be known before the app is made.
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    h = await createHarness({ seed: false, config: { allowedOrigins: [origin] } });
    api = await startServer(h, {}, port);
    browser = await chromium.launch({
      executablePath,
      // Root in a container has no user namespace for Chromium's sandbox.
      args: ["--no-sandbox", "--disable-dev-shm-usage"],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await h?.close();
  });

  it("opens the channel with the token as a subprotocol and receives a message sent over HTTP", async () => {
    const ada = await h.signIn();
    const bob = await h.signIn();
    const id = await conversationOf(api, ada, bob);
    // A page of this origin (the API's JSON answers carry a CSP for documents: bypassed).
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${origin}/health`);

    const protocol = await page.evaluate(
      async ({ url, protocols }) => {
        const ws = new WebSocket(url, protocols);
        const frames: string[] = [];
        Object.assign(globalThis, { agoraFrames: frames });
        ws.onmessage = (event) => void frames.push(String(event.data));
        await new Promise((resolve, reject) => {
          ws.onopen = resolve;
          ws.onclose = (event) => reject(new Error(`closed ${event.code}`));
        });

        return ws.protocol;
      },
      {
        url: api.realtimeUrl(id),
        protocols: [realtimeProtocols.channel, `${realtimeProtocols.bearerPrefix}${bob.accessToken}`],
      },
    );
    expect(protocol).toBe(realtimeProtocols.channel);

    const sent = await api.call<Body<{ id: string }>>("POST", `/api/v1/chat/conversations/${id}/messages`, {
      token: ada.accessToken,
      body: { body: "hello, browser" },
    });
    expect(sent.status).toBe(201);
    // The channel also carries the peer's presence: only message frames are counted.
    await page.waitForFunction(
      (type) =>
        ((globalThis as { agoraFrames?: string[] }).agoraFrames ?? []).some(
          (frame) => (JSON.parse(frame) as { type: string }).type === type,
        ),
      realtimeFrameTypes.message,
    );
    const frames = await page.evaluate(
      () => (globalThis as unknown as { agoraFrames: string[] }).agoraFrames,
    );
    const messages = frames
      .map((frame) => JSON.parse(frame) as { type: string })
      .filter((frame) => frame.type === realtimeFrameTypes.message);
    expect(messages).toEqual([
      {
        type: realtimeFrameTypes.message,
        data: expect.objectContaining({ id: sent.body.data.id, body: "hello, browser" }),
      },
    ]);
    await context.close();
  });
});
