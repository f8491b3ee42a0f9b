import type { Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../test/harness";
import { MAX_BODY_BYTES } from "../app";
import { drain, listen } from "../server";
import { DRAIN_LIMITS } from "./middleware/body-limit";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type RawExchange = {
  /** Everything the server sent, as text. */
  text: string;
  /** How the connection ended: the server's FIN ("end"), a reset, or still open at the deadline. */
  ending: "end" | "reset" | "open";
  status: number;
  headers: Record<string, string>;
  body: string;
};

/**
 * Writes `chunks` to a new connection (each after the previous was flushed), then reads until the
 * server closes or `waitMs` passes. Resolves with what came back and how the connection ended.
 */
const rawExchange = (port: number, chunks: (string | Buffer)[], waitMs = 2_000): Promise<RawExchange> =>
  new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const received: Buffer[] = [];
    let ending: RawExchange["ending"] = "open";
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(received).toString("utf8");
      const [head = "", ...rest] = text.split("\r\n\r\n");
      const [statusLine = "", ...headerLines] = head.split("\r\n");
      const headers = Object.fromEntries(
        headerLines.map((line) => {
          const colon = line.indexOf(":");

          return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      resolve({
        text,
        ending,
        status: Number(statusLine.split(" ")[1]),
        headers,
        body: rest.join("\r\n\r\n"),
      });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    socket.on("end", () => {
      ending = "end";
      finish();
    });
    socket.on("error", () => {
      ending = "reset";
      finish();
    });
    socket.on("connect", async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) {
          return;
        }
        await new Promise<void>((done) => socket.write(chunk, () => done()));
      }
    });
  });

describe("connections the server refuses (over a real socket)", () => {
  let h: Harness;
  let server: Server;
  let port: number;
  let base: string;

  beforeAll(async () => {
    h = await createHarness({ seed: false });
    server = await listen(h.handler, { host: "127.0.0.1", port: 0 }, h.runtime.logger);
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    if (server) {
      await drain(server, 1_000);
    }
    await h?.close();
  });

  it("a body over the limit gets 413, drained, and the same connection then serves the next request", async () => {
    const body = Buffer.alloc(MAX_BODY_BYTES + 64 * 1024, "x");
    const exchange = await rawExchange(
      port,
      [
        `POST /api/v1/auth/register HTTP/1.1\r\nHost: agora.test\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        body,
        "GET /health HTTP/1.1\r\nHost: agora.test\r\nConnection: close\r\n\r\n",
      ],
      3_000,
    );
    expect(exchange.status).toBe(413);
    expect(exchange.headers.connection).toBe("keep-alive");
    const requestId = exchange.headers["x-request-id"];
    expect(requestId).toBeTruthy();
    const [first = "", second = ""] = exchange.body.split("HTTP/1.1 ");
    expect(JSON.parse(first)).toMatchObject({
      success: false,
      data: null,
      error: { code: "payload_too_large" },
      request_id: requestId,
    });
    expect(second).toMatch(/^200 OK/);
    expect(exchange.ending).toBe("end");
  });

  it("a body that does not end within the drain limits gets 413 with Connection: close, and a clean close", async () => {
    const exchange = await rawExchange(
      port,
      [
        `POST /api/v1/auth/register HTTP/1.1\r\nHost: agora.test\r\nContent-Type: application/json\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n`,
        Buffer.alloc(MAX_BODY_BYTES, "x"),
      ],
      DRAIN_LIMITS.ms + 2_000,
    );
    expect(exchange.status).toBe(413);
    expect(exchange.headers.connection).toBe("close");
    expect(JSON.parse(exchange.body)).toMatchObject({ success: false, error: { code: "payload_too_large" } });
    expect(exchange.ending).not.toBe("open");
  });

  it("a body refused before it is read (415) is drained too, and the same connection serves the next request", async () => {
    const body = Buffer.alloc(100 * 1024, "x");
    const exchange = await rawExchange(port, [
      `POST /api/v1/auth/register HTTP/1.1\r\nHost: agora.test\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n`,
      body,
      "GET /health HTTP/1.1\r\nHost: agora.test\r\nConnection: close\r\n\r\n",
    ]);
    expect(exchange.status).toBe(415);
    expect(exchange.headers.connection).toBe("keep-alive");
    expect(exchange.body.split("HTTP/1.1 ")[1]).toMatch(/^200 OK/);
    expect(exchange.ending).toBe("end");
  });

  it("a client's next request after a 413 does not meet a reset connection, at once or a second later", async () => {
    const oversized = JSON.stringify({ pad: "x".repeat(MAX_BODY_BYTES) });
    for (const pauseMs of [0, 1_000]) {
      const refused = await fetch(`${base}/api/v1/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: oversized,
      });
      expect(refused.status).toBe(413);
      await refused.text();
      await sleep(pauseMs);
      // The same client (undici's keep-alive pool): this must not fail with ECONNRESET or "other side closed".
      const next = await fetch(`${base}/health`);
      expect(next.status).toBe(200);
    }
  });

  it("answers request headers over 16 KiB with 431 in the envelope, with X-Request-Id, and closes", async () => {
    const exchange = await rawExchange(port, [
      `GET /api/v1 HTTP/1.1\r\nHost: agora.test\r\nX-Padding: ${"a".repeat(20 * 1024)}\r\n\r\n`,
    ]);
    expect(exchange.status).toBe(431);
    expect(exchange.headers.connection).toBe("close");
    expect(exchange.headers["x-content-type-options"]).toBe("nosniff");
    const envelope = JSON.parse(exchange.body) as { request_id: string };
    expect(envelope).toMatchObject({
      success: false,
      data: null,
      meta: null,
      error: { code: "payload_too_large" },
    });
    expect(envelope.request_id).toBe(exchange.headers["x-request-id"]);
    expect(exchange.ending).toBe("end");
  });

  it("a malformed request pipelined behind one still being answered ends the connection after that answer, whole", async () => {
    // The listing search waits on the database, so its answer is still under way when the parser
    // meets the malformed second request: that answer is not cut by a 400 written into it.
    const exchange = await rawExchange(port, [
      "GET /api/v1/listings HTTP/1.1\r\nHost: agora.test\r\n\r\nNOT HTTP AT ALL\r\n\r\n",
    ]);
    expect(exchange.status).toBe(200);
    const length = Number(exchange.headers["content-length"]);
    const answered = exchange.body.slice(0, length);
    expect(JSON.parse(answered)).toMatchObject({ success: true });
    expect(exchange.body.slice(length)).not.toMatch(/HTTP\/1\.1 400/);
    expect(exchange.ending).not.toBe("open");
  });

  it("answers a malformed request line with 400 in the envelope", async () => {
    const exchange = await rawExchange(port, ["NOT HTTP AT ALL\r\n\r\n"]);
    expect(exchange.status).toBe(400);
    expect(JSON.parse(exchange.body)).toMatchObject({ success: false, error: { code: "validation_failed" } });
    expect(exchange.ending).toBe("end");
  });
});
