// The typed client's retries against the real server, through a TCP proxy that loses a response:
// it forwards the request, lets the server commit and answer, then destroys the client's socket
// before a byte of the answer reaches it. The client sees a network error after the server's
// commit, retries with the same Idempotency-Key (and, for a chat message, the same
// client_message_id it filled in), and gets the first answer replayed: one record.
import { connect, createServer, type Server, type Socket } from "node:net";
import { createAgoraClient } from "@agora/contracts/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../test/harness";
import { startServer, type TestServer } from "../test/realtime";

/** A proxy to `port` that cuts the connection instead of answering the first request matching `drop`. */
const startLossyProxy = async (port: number) => {
  const sockets = new Set<Socket>();
  let drop: string | undefined;
  const seen: string[] = [];
  const server: Server = createServer((client) => {
    const upstream = connect(port, "127.0.0.1");
    sockets.add(client);
    sockets.add(upstream);
    let cut = false;
    client.on("data", (chunk: Buffer) => {
      const line = chunk.toString("latin1").split("\r\n", 1)[0] ?? "";
      if (/^[A-Z]+ \//.test(line)) {
        seen.push(line);
        if (drop !== undefined && line.startsWith(drop)) {
          drop = undefined;
          cut = true;
        }
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (cut) {
        // The server committed and answered: the answer is lost on the way back.
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.on("error", () => undefined);
    upstream.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") {
    throw new Error("the proxy has no port");
  }

  return {
    url: `http://127.0.0.1:${address.port}`,
    /** Loses the answer of the next request whose request line starts with `requestLine`. */
    loseNext(requestLine: string) {
      drop = requestLine;
    },
    /** The request lines that reached the proxy. */
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) {
          socket.destroy();
        }
        server.close(() => resolve());
      }),
  };
};

describe("the typed client retries a request whose answer was lost after the commit", () => {
  let h: Harness;
  let server: TestServer;
  let proxy: Awaited<ReturnType<typeof startLossyProxy>>;

  beforeAll(async () => {
    h = await createHarness();
    server = await startServer(h);
    proxy = await startLossyProxy(server.port);
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
    await h?.close();
  });

  const clientOf = (who: SignedIn, retries?: number) =>
    createAgoraClient({
      baseUrl: proxy.url,
      retryDelayMs: 10,
      validateResponses: true,
      getAccessToken: () => who.accessToken,
      ...(retries === undefined ? {} : { retries }),
    });
  const count = async (sql: string, params: unknown[]) =>
    (await h.db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)).rows[0]?.n ?? 0;

  it("creates one moment: the retry replays the first answer", async () => {
    const author = await h.signIn();
    proxy.loseNext("POST /api/v1/community/moments ");
    const before = proxy.seen.length;

    const moment = await clientOf(author).community.createMoment({ body: "Lost and found" });

    const sent = proxy.seen
      .slice(before)
      .filter((line) => line.startsWith("POST /api/v1/community/moments "));
    expect(sent).toHaveLength(2);
    expect(moment.body).toBe("Lost and found");
    expect(await count("moments WHERE author_id = $1", [author.user.id])).toBe(1);
  });

  it("records one manual sale, counted once in the dashboard", async () => {
    const seller = await h.provider();
    proxy.loseNext("POST /api/v1/providers/me/sales ");

    const sale = await clientOf(seller).providers.recordSale({
      amount: 1500,
      currency: "USD",
      description: "Market",
    });

    expect(sale.amount).toBe(1500);
    expect(await count("sales WHERE provider_id = $1", [seller.providerId])).toBe(1);
    const dashboard = await clientOf(seller).providers.dashboard();
    expect(dashboard.revenue_30d).toEqual([expect.objectContaining({ currency: "USD", manual_sales: 1500 })]);
  });

  it("sends one chat message: the client fills client_message_id and its retry carries the same", async () => {
    const ada = await h.signIn();
    const bob = await h.signIn();
    const conversation = await clientOf(ada).chat.openConversation({ other_user_id: bob.user.id });
    const send = `POST /api/v1/chat/conversations/${conversation.id}/messages `;
    proxy.loseNext(send);
    const before = proxy.seen.length;

    const message = await clientOf(ada).chat.send(conversation.id, { body: "Only once" });

    expect(proxy.seen.slice(before).filter((line) => line.startsWith(send))).toHaveLength(2);
    expect(message.client_message_id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(await count("chat_messages WHERE conversation_id = $1", [conversation.id])).toBe(1);
    const page = await clientOf(bob).chat.messages(conversation.id, { after: 0 });
    expect(page.data.map((sent) => [sent.body, sent.client_message_id])).toEqual([
      ["Only once", message.client_message_id],
    ]);
  });

  it("keeps the caller's client_message_id: the app's own resend after a network error is the same message", async () => {
    const ada = await h.signIn();
    const bob = await h.signIn();
    const conversation = await clientOf(ada).chat.openConversation({ other_user_id: bob.user.id });
    proxy.loseNext(`POST /api/v1/chat/conversations/${conversation.id}/messages `);
    const draft = { body: "Typed offline", client_message_id: "draft-42" };

    await expect(clientOf(ada, 0).chat.send(conversation.id, draft)).rejects.toMatchObject({
      code: "network_error",
    });
    // A new call (a new Idempotency-Key), the same id: the first message answers.
    const resent = await clientOf(ada, 0).chat.send(conversation.id, draft);

    expect(resent).toMatchObject({ seq: 1, client_message_id: "draft-42" });
    expect(await count("chat_messages WHERE conversation_id = $1", [conversation.id])).toBe(1);
  });

  it("with retries off, reports the network error (and the server made its one record)", async () => {
    const author = await h.signIn();
    proxy.loseNext("POST /api/v1/community/moments ");

    await expect(clientOf(author, 0).community.createMoment({ body: "Once" })).rejects.toMatchObject({
      code: "network_error",
    });
    expect(await count("moments WHERE author_id = $1", [author.user.id])).toBe(1);
  });

  it("never retries a write without a key: a lost like is sent once", async () => {
    const author = await h.signIn();
    const moment = await clientOf(author).community.createMoment({ body: "Like me" });
    const fan = await h.signIn();
    proxy.loseNext(`POST /api/v1/community/moments/${moment.id}/like `);
    const before = proxy.seen.length;

    await expect(clientOf(fan, 5).community.like(moment.id)).rejects.toMatchObject({ code: "network_error" });

    expect(proxy.seen.slice(before).filter((line) => line.includes("/like "))).toHaveLength(1);
  });
});
