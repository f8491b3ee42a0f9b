import { createRoute } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createHarness, type Harness } from "../../test/harness";
import { MAX_BODY_BYTES } from "../app";
import { body, errors, json } from "./openapi";
import { ok } from "./respond";

type Envelope = {
  success: boolean;
  data: unknown;
  meta: unknown;
  error: { code: string; message: string; details?: { path: string; message: string }[] } | null;
  request_id: string;
};

const expectErrorEnvelope = (res: { body: unknown; headers: Headers }, code: string) => {
  const envelope = res.body as Envelope;
  expect(Object.keys(envelope).sort()).toEqual(["data", "error", "meta", "request_id", "success"]);
  expect(envelope).toMatchObject({ success: false, data: null, meta: null, error: { code } });
  expect(envelope.request_id).toBe(res.headers.get("x-request-id"));

  return envelope;
};

describe("HTTP shell: envelope, request ids and error mapping", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness();
    // A probe route exercising body validation and failures, mounted like any module route.
    const echo = createRoute({
      method: "post",
      path: "/__probe/echo",
      request: body(z.object({ name: z.string().min(1).max(5), count: z.number().int() })),
      responses: { 200: json(z.object({}), "ok"), ...errors("validation_failed") },
    });
    h.app.openapi(echo, (c) => ok(c, c.req.valid("json")));
    h.app.get("/__probe/boom", async () => {
      await h.db.sql.query("SELECT secret_column FROM table_that_does_not_exist WHERE password = 'hunter2'");

      return new Response("unreachable");
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("wraps success in exactly success, data, meta, error, request_id", async () => {
    const res = await h.get("/health");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["data", "error", "meta", "request_id", "success"]);
    expect(res.body).toMatchObject({ success: true, data: { status: "ok" }, meta: null, error: null });
  });

  it("echoes a valid X-Request-Id in the body and the header", async () => {
    const res = await h.get("/api/v1", { headers: { "x-request-id": "client-abc.123:x" } });
    expect(res.headers.get("x-request-id")).toBe("client-abc.123:x");
    expect(res.body).toMatchObject({
      request_id: "client-abc.123:x",
      data: { name: "agora", version: "0.1.0" },
    });
  });

  it("replaces an unacceptable X-Request-Id with a new one", async () => {
    const res = await h.get("/health", { headers: { "x-request-id": "bad id\twith spaces" } });
    const id = res.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect((res.body as Envelope).request_id).toBe(id);
  });

  it("answers unknown routes with 404 not_found in the envelope", async () => {
    const res = await h.get("/api/v1/no-such-thing");
    expect(res.status).toBe(404);
    expectErrorEnvelope(res, "not_found");
  });

  it("answers a known path with the wrong method with 405 and Allow", async () => {
    const res = await h.request("DELETE", "/health");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
    expectErrorEnvelope(res, "method_not_allowed");
  });

  it("answers malformed JSON with 422 validation_failed", async () => {
    const res = await h.request("POST", "/__probe/echo", {
      rawBody: '{"name": "x",',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(422);
    const envelope = expectErrorEnvelope(res, "validation_failed");
    expect(envelope.error?.details).toEqual([{ path: "body", message: "is not valid JSON" }]);
  });

  it("answers schema violations with 422 and one detail per field", async () => {
    const res = await h.post("/__probe/echo", { name: "much too long", count: 1.5 });
    expect(res.status).toBe(422);
    const envelope = expectErrorEnvelope(res, "validation_failed");
    expect(envelope.error?.details?.map((d) => d.path).sort()).toEqual(["count", "name"]);
  });

  it("answers a missing body on a body route with 422", async () => {
    const res = await h.request("POST", "/__probe/echo");
    expect(res.status).toBe(422);
    expectErrorEnvelope(res, "validation_failed");
  });

  it("answers a non-JSON content type with 415 unsupported_media_type", async () => {
    const res = await h.request("POST", "/__probe/echo", {
      rawBody: "name=x&count=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(415);
    expectErrorEnvelope(res, "unsupported_media_type");
  });

  it("answers bodies over the limit with 413 payload_too_large", async () => {
    const res = await h.request("POST", "/__probe/echo", {
      rawBody: JSON.stringify({ name: "x", count: 1, pad: "x".repeat(MAX_BODY_BYTES) }),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(413);
    expectErrorEnvelope(res, "payload_too_large");
  });

  it("answers bodies over the limit without Content-Length (chunked) with 413 too", async () => {
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > MAX_BODY_BYTES + chunk.length) {
          controller.close();

          return;
        }
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const response = await h.fetch("/__probe/echo", {
      method: "POST",
      headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(((await response.json()) as Envelope).error?.code).toBe("payload_too_large");
  });

  it("answers unexpected errors with 500 internal_error, logged with the request id, without stack or SQL", async () => {
    const res = await h.get("/__probe/boom", { headers: { "x-request-id": "boom-1" } });
    expect(res.status).toBe(500);
    const envelope = expectErrorEnvelope(res, "internal_error");
    expect(envelope.error?.message).toBe("An internal error occurred.");
    expect(res.text).not.toMatch(/table_that_does_not_exist|hunter2|SELECT|at .*\.ts/);

    const logged = h.logs.raw.filter((line) => line.includes("boom-1"));
    expect(logged.some((line) => line.includes('"unhandled error"'))).toBe(true);
    expect(logged.some((line) => line.includes('"status":500'))).toBe(true);
    for (const line of logged) {
      expect(line).not.toMatch(/hunter2|SELECT secret_column|\n\s+at |\.ts:\d+/);
    }
  });

  it("logs one line per request with request id, route template, status and duration", async () => {
    await h.get("/api/v1", { headers: { "x-request-id": "log-line-1" } });
    const lines = h.logs.lines.filter((line) => line.request_id === "log-line-1" && line.msg === "request");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ method: "GET", route: "/api/v1", status: 200 });
    expect(typeof lines[0]?.duration_ms).toBe("number");
  });

  it("sets secure response headers", async () => {
    const res = await h.get("/health");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
  });

  it("marks every /api/v1 response Cache-Control: no-store: successes, errors, tokens and documents", async () => {
    const session = await h.signIn();
    const responses = [
      await h.get("/api/v1"),
      await h.get("/api/v1/auth/me", { token: session.accessToken }),
      await h.post("/api/v1/auth/refresh", { refresh_token: session.refreshToken }),
      await h.get("/api/v1/auth/me"),
      await h.get("/api/v1/no-such-route"),
      await h.get("/api/v1/openapi.json"),
      await h.post("/__probe/echo", { name: "toolongname", count: 1 }),
    ];
    for (const res of responses) {
      expect(res.headers.get("cache-control"), String(res.status)).toBe("no-store");
    }
  });
});

describe("HTTP shell: CORS", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness({ config: { allowedOrigins: ["https://admin.example.com"] }, seed: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("allows a listed origin, including the preflight", async () => {
    const res = await h.request("OPTIONS", "/api/v1", {
      headers: { origin: "https://admin.example.com", "access-control-request-method": "GET" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://admin.example.com");
  });

  it("gives no CORS grant to another origin", async () => {
    const res = await h.get("/api/v1", { headers: { origin: "https://evil.example.com" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });
});
