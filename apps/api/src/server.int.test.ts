import type { AddressInfo } from "node:net";
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
