import { openDatabase } from "@agora/db/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../test/harness";
import { specRoutes } from "../../../test/spec-routes";
import { createHttpHandler, OPENAPI_PATH } from "../../app";

describe("system routes", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness({ seed: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("GET /health answers 200 ok", async () => {
    const res = await h.get("/health");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: { status: "ok" } });
  });

  it("GET /api/v1 answers the name and version", async () => {
    const res = await h.get("/api/v1");
    expect(res.body).toMatchObject({ data: { name: "agora", version: "0.1.0" } });
  });

  it("GET /ready answers 200 with checks skipped when readiness checks are disabled", async () => {
    const res = await h.get("/ready");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: { status: "ready", checks: { database: "skipped" } } });
  });

  it("GET /ready pings the database when checks are enabled and it is up", async () => {
    const handler = createHttpHandler({ ...h.runtime, config: { ...h.config, readinessChecks: true } });
    const res = await handler(new Request("http://agora.test/ready"));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: { status: "ready", checks: { database: "ok" } } });
  });

  it("GET /ready answers 503 naming the database when it is down", async () => {
    // A real client pointed at a port nothing listens on: the ping fails as it would in production.
    const down = await openDatabase({ url: "postgresql://postgres@127.0.0.1:9/agora", poolMax: 1 });
    try {
      const handler = createHttpHandler({
        ...h.runtime,
        config: { ...h.config, readinessChecks: true },
        probes: [{ name: "database", check: () => down.ping() }],
      });
      const res = await handler(new Request("http://agora.test/ready"));
      expect(res.status).toBe(503);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("service_unavailable");
      expect(body.error.message).toContain("database");
    } finally {
      await down.close();
    }
  });

  it("GET /metrics exposes process metrics and the request histogram by method, route and status", async () => {
    await h.get("/health");
    await h.get("/api/v1/nope");
    const res = await h.get("/metrics");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    expect(res.text).toContain("process_cpu_user_seconds_total");
    expect(res.text).toMatch(
      /http_request_duration_seconds_bucket\{le="[^"]+",method="GET",route="\/health",status="200"\}/,
    );
    expect(res.text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\} \d+/,
    );
  });

  it("serves the OpenAPI 3.1 document with the process routes and without itself or /docs", async () => {
    const res = await h.get<{ openapi: string; info: { version: string }; paths: Record<string, object> }>(
      OPENAPI_PATH,
    );
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    expect(res.body.info.version).toBe("0.1.0");
    for (const path of ["/health", "/ready", "/metrics", "/api/v1"]) {
      expect(res.body.paths[path]).toHaveProperty("get");
    }
    expect(res.body.paths[OPENAPI_PATH]).toBeUndefined();
    expect(res.body.paths["/docs"]).toBeUndefined();
  });

  it("documents every route the app serves, and nothing else", async () => {
    const res = await h.get<{ paths: Record<string, Record<string, unknown>> }>(OPENAPI_PATH);
    const documented = Object.entries(res.body.paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    const served = h.app.routes
      .filter(
        (route) =>
          route.method !== "ALL" &&
          !route.path.includes("*") &&
          route.path !== OPENAPI_PATH &&
          route.path !== "/docs",
      )
      .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`);
    expect([...new Set(served)].sort()).toEqual(documented);
  });

  it("documents only SPEC's method + path pairs, under SPEC's exact paths", async () => {
    const res = await h.get<{ paths: Record<string, Record<string, unknown>> }>(OPENAPI_PATH);
    const documented = Object.entries(res.body.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.filter((route) => !specRoutes.includes(route))).toEqual([]);
    expect(specRoutes).toHaveLength(88);
  });

  it("serves the interactive reference at /docs", async () => {
    const res = await h.get("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.text).toContain(OPENAPI_PATH);
  });
});
