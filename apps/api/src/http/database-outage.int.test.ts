import { createServer } from "node:net";
import { DEFAULT_TIMEOUTS, testConfig } from "@agora/process/config";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, createLogCapture, type Harness } from "../../test/harness";
import { createApp, createHttpHandler } from "../app";
import { createDeps, type Runtime } from "../deps";
import { createStartupGate } from "./startup-gate";

/** A TCP port on which nothing listens. */
const closedPort = async (): Promise<number> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));

  return typeof address === "object" && address ? address.port : 9;
};

type Envelope = {
  success: boolean;
  data: unknown;
  meta: unknown;
  error: { code: string; message: string; details?: { path: string; message: string }[] } | null;
  request_id: string;
};

// Anything of the driver's that must never reach a client.
const driverText = /ECONNREFUSED|127\.0\.0\.1|connect |postgres|Connection terminated|\bat \S+\.(ts|js)/i;

describe("the API while its PostgreSQL is unreachable (a URL nothing answers: the same on every test backend)", () => {
  let runtime: Runtime;
  let handler: ReturnType<typeof createHttpHandler>;
  const logs = createLogCapture();

  beforeAll(async () => {
    const config = testConfig({
      databaseUrl: `postgresql://agora:hunter2@127.0.0.1:${await closedPort()}/agora`,
      readinessChecks: true,
      timeouts: { ...DEFAULT_TIMEOUTS, databaseAcquireMs: 1_000 },
    });
    runtime = await createDeps(config, { logger: logs.logger });
    handler = createHttpHandler(runtime);
  });
  afterAll(async () => {
    await runtime?.close();
  });

  const call = async (path: string, init?: RequestInit) => {
    const started = performance.now();
    const response = await handler(new Request(new URL(path, "http://agora.test"), init));
    const text = await response.text();

    return { response, text, body: JSON.parse(text) as Envelope, ms: performance.now() - started };
  };

  it("keeps /health at 200", async () => {
    const { response } = await call("/health");
    expect(response.status).toBe(200);
  });

  it("answers /ready with 503 naming the database", async () => {
    const { response, body } = await call("/ready");
    expect(response.status).toBe(503);
    expect(body.error?.code).toBe("service_unavailable");
    expect(body.error?.details).toEqual([{ path: "database", message: "unavailable" }]);
  });

  it("answers reads and writes with 503 service_unavailable, quickly, in the envelope, with Retry-After and no driver text", async () => {
    for (const [path, init] of [
      ["/api/v1/listings?q=tea", undefined],
      ["/api/v1/catalog/categories", undefined],
      [
        "/api/v1/auth/register",
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            email: "ada@example.com",
            username: "ada_l",
            password: "correct horse battery",
          }),
        },
      ],
    ] as const) {
      const { response, text, body, ms } = await call(path, init);
      expect(response.status, path).toBe(503);
      expect(body).toMatchObject({
        success: false,
        data: null,
        meta: null,
        error: { code: "service_unavailable" },
      });
      expect(body.request_id).toBe(response.headers.get("x-request-id"));
      expect(response.headers.get("retry-after")).toBe("1");
      expect(text).not.toMatch(driverText);
      expect(text).not.toContain("hunter2");
      expect(ms).toBeLessThan(2_000);
    }
  });

  it("logs why (the driver's code, first line only), never the password, SQL or a stack", () => {
    const warnings = logs.lines.filter((line) => line.msg === "dependency unavailable");
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.some((line) => JSON.stringify(line).includes("ECONNREFUSED"))).toBe(true);
    for (const line of logs.raw) {
      expect(line).not.toContain("hunter2");
      expect(line).not.toMatch(/SELECT|INSERT|\n\s+at /);
    }
  });
});

describe("the start-up gate (listening, database not ready yet)", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness({ seed: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("serves liveness and the documents, answers /ready and everything else 503 until opened", async () => {
    const gate = createStartupGate();
    const handler = createHttpHandler(h.runtime, createApp(h.runtime), gate);
    const call = async (path: string, init?: RequestInit) => {
      const response = await handler(new Request(new URL(path, "http://agora.test"), init));

      return {
        status: response.status,
        headers: response.headers,
        body: (await response.json()) as Envelope,
      };
    };

    expect((await call("/health")).status).toBe(200);
    expect((await call("/api/v1/openapi.json")).status).toBe(200);
    const ready = await call("/ready", { headers: { "x-request-id": "starting-1" } });
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({
      success: false,
      error: { code: "service_unavailable", details: [{ path: "database", message: "unavailable" }] },
      request_id: "starting-1",
    });
    expect(ready.headers.get("x-request-id")).toBe("starting-1");
    expect(ready.headers.get("x-content-type-options")).toBe("nosniff");
    const listings = await call("/api/v1/listings");
    expect(listings.status).toBe(503);
    expect(listings.body.error?.code).toBe("service_unavailable");
    expect(listings.headers.get("retry-after")).toBe("1");

    gate.open();
    expect((await call("/ready")).status).toBe(200);
    expect((await call("/api/v1/listings")).status).toBe(200);
  });
});
