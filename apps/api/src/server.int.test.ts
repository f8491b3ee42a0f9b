import { type AddressInfo, connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../test/harness";
import { drain, listen } from "./server";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("node server lifecycle", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness({ seed: false });
    h.app.get("/__probe/slow", async (c) => {
      await sleep(400);

      return c.json({ finished: true });
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("sets header, request and keep-alive timeouts explicitly", async () => {
    const server = await listen(h.handler, { host: "127.0.0.1", port: 0 });
    try {
      expect(server.headersTimeout).toBe(10_000);
      expect(server.requestTimeout).toBe(30_000);
      expect(server.keepAliveTimeout).toBe(5_000);
    } finally {
      await drain(server, 1_000);
    }
  });

  it("routes over HTTP on the request target's path: plain, with a query, percent-encoded, with dot segments", async () => {
    h.app.get("/__probe/echo/:word", (c) => c.json({ word: c.req.param("word"), path: c.req.path }));
    const server = await listen(h.handler, { host: "127.0.0.1", port: 0 });
    const { port } = server.address() as AddressInfo;
    const get = async (target: string) => {
      // fetch would normalize the target itself: write it raw.
      const socket = connect(port, "127.0.0.1");
      socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
      let text = "";
      for await (const chunk of socket) {
        text += String(chunk);
      }

      return JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4)) as unknown;
    };
    try {
      expect(await get("/__probe/echo/plain")).toEqual({ word: "plain", path: "/__probe/echo/plain" });
      expect(await get("/__probe/echo/query?x=%2F")).toEqual({ word: "query", path: "/__probe/echo/query" });
      expect(await get("/__probe/echo/caf%C3%A9")).toEqual({ word: "café", path: "/__probe/echo/café" });
      expect(await get("/__probe/x/../echo/dots")).toEqual({ word: "dots", path: "/__probe/echo/dots" });
      const api = await fetch(`http://127.0.0.1:${port}/api/v1?probe=1`);
      expect(api.status).toBe(200);
    } finally {
      await drain(server, 1_000);
    }
  });

  it("sends the request id and the security headers on real responses", async () => {
    const server = await listen(h.handler, { host: "127.0.0.1", port: 0 });
    const { port } = server.address() as AddressInfo;
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1`, {
        headers: { "x-request-id": "over-the-wire" },
      });
      expect(response.headers.get("x-request-id")).toBe("over-the-wire");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("strict-transport-security")).toContain("max-age=");
      expect(response.headers.get("x-frame-options")).toBe("SAMEORIGIN");
      expect(await response.json()).toMatchObject({ request_id: "over-the-wire", data: { name: "agora" } });
    } finally {
      await drain(server, 1_000);
    }
  });

  it("drains on shutdown: in-flight requests finish, new connections are refused", async () => {
    const server = await listen(h.handler, { host: "127.0.0.1", port: 0 });
    const { port } = server.address() as AddressInfo;
    const inFlight = fetch(`http://127.0.0.1:${port}/__probe/slow`);
    await sleep(100);

    const drained = drain(server, 5_000);
    await sleep(50);
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();

    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ finished: true });
    expect(await drained).toBe(true);
  });

  it("does not cut a keep-alive connection that has just answered: the next request written on it is served", async () => {
    const server = await listen(h.handler, { host: "127.0.0.1", port: 0 });
    const { port } = server.address() as AddressInfo;
    const socket: Socket = connect(port, "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    let received = "";
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
    });
    const ended = new Promise<string>((resolve) => {
      socket.once("close", () => resolve(received));
      socket.once("error", () => resolve(`${received}<error>`));
    });
    const request = "GET /health HTTP/1.1\r\nHost: agora.test\r\n\r\n";
    socket.write(request);
    for (let waited = 0; !received.includes('"status":"ok"') && waited < 5_000; waited += 5) {
      await sleep(5);
    }
    // Shutdown begins the moment the first answer is in, and the next request follows at once, as a
    // balancer reusing its most recent connection would send it.
    const drained = drain(server, 5_000);
    socket.write(request);
    const answer = await ended;
    expect(answer.match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
    expect(await drained).toBe(true);
  });

  it("closes an idle keep-alive connection a moment after shutdown begins", async () => {
    const server = await listen(h.handler, { host: "127.0.0.1", port: 0 });
    const { port } = server.address() as AddressInfo;
    const socket: Socket = connect(port, "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    const firstAnswer = new Promise<void>((resolve) => socket.once("data", () => resolve()));
    socket.write("GET /health HTTP/1.1\r\nHost: agora.test\r\n\r\n");
    await firstAnswer;
    const closed = new Promise<number>((resolve) => socket.once("close", () => resolve(performance.now())));
    const began = performance.now();
    expect(await drain(server, 5_000)).toBe(true);
    const at = await closed;
    expect(at - began).toBeGreaterThanOrEqual(200);
    expect(at - began).toBeLessThan(2_000);
  });

  it("cuts connections that outlive the grace period", async () => {
    const server = await listen(h.handler, { host: "127.0.0.1", port: 0 });
    const { port } = server.address() as AddressInfo;
    const inFlight = fetch(`http://127.0.0.1:${port}/__probe/slow`).then(
      () => "answered",
      () => "cut",
    );
    await sleep(100);
    expect(await drain(server, 50)).toBe(false);
    expect(await inFlight).toBe("cut");
  });
});
