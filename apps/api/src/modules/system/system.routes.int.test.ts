import { openDatabase } from "@agora/db/client";
import { loadMigrations, migrate } from "@agora/db/migrator";
import { readOutboxFigures } from "@agora/db/repositories/outbox/outbox-events.repository";
import { createTestDatabase } from "@agora/db/test/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../test/harness";
import { addedRoutes, SPEC_ROUTE_COUNT, specRoutes } from "../../../test/spec-routes";
import { createHttpHandler, OPENAPI_PATH } from "../../app";
import { createDeps } from "../../deps";
import { createLifecycle } from "../../http/lifecycle";
import { createMetrics } from "../../http/metrics";

/** One sample of the exposition text (undefined when the series is absent). */
const sample = (text: string, series: string): number | undefined => {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));

  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

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

  it("GET /ready checks the database and the schema when checks are enabled and both are fine", async () => {
    const handler = createHttpHandler({ ...h.runtime, config: { ...h.config, readinessChecks: true } });
    const res = await handler(new Request("http://agora.test/ready"));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      data: { status: "ready", checks: { database: "ok", schema: "ok" } },
    });
  });

  it("GET /ready answers 503 naming the schema and the migrations it lacks, until they are applied", async () => {
    const behind = await createTestDatabase({ migrated: false });
    try {
      const migrations = loadMigrations();
      const missing = migrations.slice(-2).map((migration) => migration.name);
      await migrate(behind.db.sql, migrations.slice(0, -2));
      const runtime = await createDeps(
        { ...h.config, readinessChecks: true },
        { database: behind.db, logger: h.runtime.logger },
      );
      try {
        const handler = createHttpHandler(runtime);
        const res = await handler(new Request("http://agora.test/ready"));
        expect(res.status).toBe(503);
        const body = (await res.json()) as { error: { code: string; message: string; details: unknown } };
        expect(body.error.code).toBe("service_unavailable");
        expect(body.error.details).toEqual([
          { path: "schema", message: `2 migrations not applied: ${missing.join(", ")}` },
        ]);
        expect(body.error.message).toBe(
          `Not ready: schema (2 migrations not applied: ${missing.join(", ")}).`,
        );

        await migrate(behind.db.sql, migrations);
        const after = await handler(new Request("http://agora.test/ready"));
        expect(after.status).toBe(200);
        expect(await after.json()).toMatchObject({ data: { checks: { database: "ok", schema: "ok" } } });
      } finally {
        await runtime.close();
      }
    } finally {
      await behind.dispose();
    }
  });

  it("GET /ready answers 503 naming the process once it drains (SIGTERM), whatever READINESS_CHECKS says", async () => {
    const lifecycle = createLifecycle();
    const handler = createHttpHandler({ ...h.runtime, lifecycle });
    expect((await handler(new Request("http://agora.test/ready"))).status).toBe(200);
    lifecycle.drain();
    const res = await handler(new Request("http://agora.test/ready"));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await res.json()).toMatchObject({
      success: false,
      error: {
        code: "service_unavailable",
        message: "Not ready: shutting down.",
        details: [{ path: "process", message: "shutting down" }],
      },
    });
    // Everything else is still served while the process drains.
    expect((await handler(new Request("http://agora.test/health"))).status).toBe(200);
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

  it("GET /ready with the database down names the database alone (the schema check needs it)", async () => {
    const down = await openDatabase({ url: "postgresql://postgres@127.0.0.1:9/agora", poolMax: 1 });
    try {
      let schemaAsked = false;
      const handler = createHttpHandler({
        ...h.runtime,
        config: { ...h.config, readinessChecks: true },
        probes: [
          { name: "database", check: () => down.ping() },
          {
            name: "schema",
            requires: "database",
            check: async () => {
              schemaAsked = true;
            },
          },
        ],
      });
      const res = await handler(new Request("http://agora.test/ready"));
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({
        error: {
          message: "Not ready: database unavailable.",
          details: [{ path: "database", message: "unavailable" }],
        },
      });
      expect(schemaAsked).toBe(false);
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
    // The log's own gaps (packages/process/src/log-metrics.test.ts drops lines for real).
    expect(res.text).toMatch(/^agora_log_lines_dropped_total \d+$/m);
  });

  it("GET /metrics reports the outbox backlog, its oldest pending event, dead letters, sockets, the listing page cache and pools", async () => {
    const { sql } = h.db;
    const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);
    const event = async (state: "pending" | "processed" | "dead", createdAt: Date) => {
      await sql.query(
        `INSERT INTO outbox_events (id, kind, aggregate_type, aggregate_id, payload, available_at, created_at, processed_at, dead_at)
         VALUES ($1, 'test.kind', 'test', 'x', '{}'::jsonb, now() + interval '1 hour', $2, $3, $4)`,
        [
          h.runtime.ids.next(),
          createdAt,
          state === "processed" ? new Date() : null,
          state === "dead" ? new Date() : null,
        ],
      );
    };
    await event("pending", ago(120));
    await event("pending", ago(5));
    await event("processed", ago(3_600));
    await event("dead", ago(600));
    // The moderation queue's oldest undecided report: 3 hours old (a decided older one does not count).
    const reporter = await h.createUser();
    const report = async (status: string, createdAt: Date) => {
      await sql.query(
        `INSERT INTO reports (id, target_type, target_id, reporter_id, category, reason, status, created_at, updated_at)
         VALUES ($1, 'user', $2, $2, 'spam', 'spam', $3, $4, $4)`,
        [h.runtime.ids.next(), reporter.id, status, createdAt],
      );
    };
    await report("open", ago(3 * 3_600));
    await report("resolved", ago(30 * 3_600));
    const metrics = createMetrics();
    metrics.watchOutbox(() => readOutboxFigures(sql, 1_000));
    metrics.watchRealtime(() => 3);
    metrics.watchListingCache(() => ({ hits: 40, misses: 7, pages: 6 }));
    metrics.watchPool("api", () => ({ max: 10, inUse: 2, idle: 5, waiting: 1 }));
    metrics.watchPool("embedded", () => undefined);
    const handler = createHttpHandler({ ...h.runtime, metrics });
    const res = await handler(new Request("http://agora.test/metrics"));
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(sample(text, "agora_outbox_figures_up")).toBe(1);
    expect(sample(text, "agora_outbox_pending_events")).toBe(2);
    expect(sample(text, "agora_outbox_oldest_pending_age_seconds")).toBeGreaterThanOrEqual(119);
    expect(sample(text, "agora_outbox_oldest_pending_age_seconds")).toBeLessThan(180);
    expect(sample(text, "agora_outbox_dead_events")).toBe(1);
    expect(sample(text, "agora_reports_oldest_undecided_age_seconds")).toBeGreaterThanOrEqual(3 * 3_600 - 1);
    expect(sample(text, "agora_reports_oldest_undecided_age_seconds")).toBeLessThan(3 * 3_600 + 60);
    expect(sample(text, "agora_realtime_open_sockets")).toBe(3);
    expect(sample(text, 'agora_listing_cache_lookups_total{result="hit"}')).toBe(40);
    expect(sample(text, 'agora_listing_cache_lookups_total{result="miss"}')).toBe(7);
    expect(sample(text, "agora_listing_cache_pages")).toBe(6);
    expect(sample(text, 'agora_db_pool_connections_in_use{pool="api"}')).toBe(2);
    expect(sample(text, 'agora_db_pool_connections_idle{pool="api"}')).toBe(5);
    expect(sample(text, 'agora_db_pool_waiting_requests{pool="api"}')).toBe(1);
    expect(sample(text, 'agora_db_pool_connections_max{pool="api"}')).toBe(10);
    // A pool that has no figures (PGlite's single connection) reports no series.
    expect(text).not.toContain('pool="embedded"');
    await sql.query("DELETE FROM outbox_events WHERE kind = 'test.kind'");
  });

  it("GET /metrics answers 200 without the outbox figures when the database is down", async () => {
    const down = await openDatabase({ url: "postgresql://postgres@127.0.0.1:9/agora", poolMax: 1 });
    try {
      const metrics = createMetrics();
      metrics.watchOutbox(() => readOutboxFigures(down.sql, 1_000));
      metrics.watchPool("api", () => down.poolStats());
      const handler = createHttpHandler({ ...h.runtime, metrics });
      const started = performance.now();
      const res = await handler(new Request("http://agora.test/metrics"));
      expect(res.status).toBe(200);
      expect(performance.now() - started).toBeLessThan(2_000);
      const text = await res.text();
      expect(sample(text, "agora_outbox_figures_up")).toBe(0);
      expect(text).not.toContain("agora_outbox_pending_events");
      expect(text).not.toContain("agora_outbox_dead_events");
      expect(text).toContain("process_cpu_user_seconds_total");
      expect(sample(text, 'agora_db_pool_connections_max{pool="api"}')).toBe(1);
    } finally {
      await down.close();
    }
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
          !route.path.startsWith("/docs"),
      )
      .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`);
    expect([...new Set(served)].sort()).toEqual(documented);
  });

  it("documents only the API's method + path pairs, under their exact paths", async () => {
    const res = await h.get<{ paths: Record<string, Record<string, unknown>> }>(OPENAPI_PATH);
    const documented = Object.entries(res.body.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.filter((route) => !specRoutes.includes(route))).toEqual([]);
    expect(specRoutes.filter((route) => !addedRoutes.includes(route))).toHaveLength(SPEC_ROUTE_COUNT);
  });

  it("serves the interactive reference at /docs", async () => {
    const res = await h.get("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.text).toContain(OPENAPI_PATH);
  });
});
