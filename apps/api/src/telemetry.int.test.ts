// OpenTelemetry on the built API process: with OTEL_EXPORTER_OTLP_ENDPOINT set, HTTP and SQL spans
// arrive at a local OTLP/HTTP receiver; without it, none of our OpenTelemetry modules is even loaded
// (a module hook preloaded into the process records every @opentelemetry module it resolves, and
// who asked for it).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase, onPostgres, type TestDatabase } from "@agora/db/test/databases";
import { eventually } from "@agora/testing/eventually";
import {
  loadRecorder,
  type OtlpReceiver,
  readLoads,
  SpanKinds,
  startOtlpReceiver,
} from "@agora/testing/otlp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiProcess, startProcess, TEST_TOKEN_SECRET } from "../test/processes";

// `pnpm start`'s entry: migrates and seeds first, so the same test runs on PGlite.
const startJs = fileURLToPath(new URL("../dist/start.js", import.meta.url));

describe("OpenTelemetry traces from the API process (OTEL_EXPORTER_OTLP_ENDPOINT)", () => {
  let dir: string;
  let preload: string[];
  let receiver: OtlpReceiver;
  let target: TestDatabase | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "agora-otel-"));
    preload = loadRecorder(dir);
    receiver = await startOtlpReceiver();
    target = onPostgres ? await createTestDatabase({ migrated: false }) : undefined;
  });
  afterAll(async () => {
    await receiver?.close();
    await target?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const loadsFile = (name: string) => path.join(dir, `${name}.loads`);
  const loaded = (name: string) => readLoads(loadsFile(name));

  const startApi = async (name: string, env: Record<string, string>): Promise<[ApiProcess, string]> => {
    const api = startProcess(
      {
        APP_ENV: "development",
        ...(target?.url ? { DATABASE_URL: target.url } : {}),
        DATA_DIR: path.join(dir, `${name}-data`),
        TOKEN_SECRET: TEST_TOKEN_SECRET,
        HOST: "127.0.0.1",
        PORT: "0",
        WORKER: "embedded",
        LOG_LEVEL: "info",
        AGORA_TEST_LOADS: loadsFile(name),
        ...env,
      },
      startJs,
      preload,
    );
    const origin = await api.origin();
    await eventually(async () => {
      const response = await fetch(`${origin}/ready`).catch(() => undefined);

      return response?.status === 200 ? true : undefined;
    }, 60_000);

    return [api, origin];
  };

  it("sends HTTP and SQL spans to the OTLP/HTTP endpoint as JSON, continuing an incoming traceparent", async () => {
    const [api, origin] = await startApi("traced", { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint });
    try {
      const traceId = randomBytes(16).toString("hex");
      const parentId = randomBytes(8).toString("hex");
      const response = await fetch(`${origin}/api/v1/catalog/services`, {
        headers: { traceparent: `00-${traceId}-${parentId}-01` },
      });
      expect(response.status).toBe(200);

      const server = await eventually(
        () => receiver.spans.find((span) => span.traceId === traceId && span.kind === SpanKinds.server),
        10_000,
      );
      expect(server).toMatchObject({
        service: "agora-api",
        name: "GET /api/v1/catalog/services",
        parentSpanId: parentId,
        attributes: {
          "http.request.method": "GET",
          "http.route": "/api/v1/catalog/services",
          "http.response.status_code": 200,
        },
      });
      const statements = await eventually(() => {
        const found = receiver.spans.filter(
          (span) => span.parentSpanId === server.spanId && span.kind === SpanKinds.client,
        );

        return found.length > 0 ? found : undefined;
      }, 10_000);
      expect(statements.every((span) => span.traceId === traceId)).toBe(true);
      expect(statements[0]?.attributes).toMatchObject({ "db.system.name": "postgresql" });
      expect(String(statements[0]?.attributes["db.query.text"])).toMatch(/^\s*SELECT/i);
      // The embedded worker's idle polling makes no spans of its own (no request, no delivery).
      expect(receiver.spans.filter((span) => span.kind === SpanKinds.client && !span.parentSpanId)).toEqual(
        [],
      );
      expect([...receiver.contentTypes]).toEqual(["application/json"]);
      expect(api.lines().find((line) => line.msg === "agora api listening")).toMatchObject({
        tracing: "otlp",
      });
      api.child.kill("SIGTERM");
      expect(await api.exited).toBe(0);
      // The recorder sees OpenTelemetry when it is loaded, so its silence below means something.
      expect(loaded("traced").map((load) => load.module)).toEqual(
        expect.arrayContaining(["@opentelemetry/sdk-trace", "@opentelemetry/exporter-trace-otlp-http"]),
      );
    } finally {
      api.child.kill("SIGKILL");
    }
  }, 90_000);

  it("loads none of the OpenTelemetry SDK and sends nothing when OTEL_EXPORTER_OTLP_ENDPOINT is unset", async () => {
    const before = receiver.spans.length;
    const [api, origin] = await startApi("untraced", {});
    try {
      for (const pathname of ["/api/v1/catalog/services", "/health", "/metrics", "/api/v1/nope"]) {
        await (await fetch(`${origin}${pathname}`)).text();
      }
      expect(api.lines().find((line) => line.msg === "agora api listening")).toMatchObject({
        tracing: "off",
      });
      api.child.kill("SIGTERM");
      expect(await api.exited).toBe(0);
    } finally {
      api.child.kill("SIGKILL");
    }
    // Only prom-client's own dependency: it requires the (no-op) @opentelemetry/api for exemplars
    // whether tracing is on or not. No SDK, exporter or context manager; nothing sent.
    expect(loaded("untraced")).toEqual([{ module: "@opentelemetry/api", importer: "prom-client" }]);
    expect(receiver.spans.length).toBe(before);
  }, 90_000);
});
