import { Writable } from "node:stream";
import { seedCatalog } from "@agora/db/seed";
import { createTestDatabase, type TestDatabase } from "@agora/db/test/databases";
import { createManualClock, type ManualClock } from "@agora/domain/shared/clock";
import { uuidV7Ids } from "@agora/domain/shared/ids";
import { type Config, testConfig } from "@agora/runtime/config";
import { createLogger } from "@agora/runtime/logging";
import { createApp } from "../src/app";
import { createDeps, type Runtime } from "../src/deps";
import { createRequestHandler } from "../src/http/handler";

export type LogLine = Record<string, unknown> & { msg?: string; level?: string };

/** Collects pino lines so tests can assert on what the service logged. */
export const createLogCapture = () => {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line) as LogLine);
      }
      done();
    },
  });

  return { lines, raw, logger: createLogger({ level: "info", destination: stream }) };
};

export type RequestOptions = {
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  token?: string;
};

export type TestResponse<T = unknown> = {
  status: number;
  headers: Headers;
  body: T;
  text: string;
};

export type Harness = Awaited<ReturnType<typeof createHarness>>;

/**
 * The real app over a fresh database (PostgreSQL when TEST_DATABASE_URL is set, PGlite otherwise)
 * with a manual clock and captured logs.
 */
export const createHarness = async (options: { config?: Partial<Config>; seed?: boolean } = {}) => {
  const target: TestDatabase = await createTestDatabase();
  if (options.seed ?? true) {
    await seedCatalog(target.db.sql, uuidV7Ids);
  }
  const clock: ManualClock = createManualClock(new Date());
  const logs = createLogCapture();
  const config = testConfig(options.config);
  const runtime: Runtime = await createDeps(config, { database: target.db, logger: logs.logger, clock });
  const app = createApp(runtime);
  const handler = createRequestHandler(app, { logger: runtime.logger, metrics: runtime.metrics });
  /** Sends a request through the same handler the server uses (without the socket). */
  const fetch = async (path: string, init?: RequestInit) =>
    handler(new Request(new URL(path, "http://agora.test"), init));

  const request = async <T = Record<string, unknown>>(
    method: string,
    path: string,
    init: RequestOptions = {},
  ): Promise<TestResponse<T>> => {
    const headers: Record<string, string> = { ...init.headers };
    let body: string | undefined = init.rawBody;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers["content-type"] ??= "application/json";
    }
    if (body !== undefined) {
      headers["content-length"] ??= String(Buffer.byteLength(body));
    }
    if (init.token) {
      headers.authorization = `Bearer ${init.token}`;
    }
    const response = await fetch(path, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get("content-type") ?? "").includes("json") && text) {
      parsed = JSON.parse(text);
    }

    return { status: response.status, headers: response.headers, body: parsed as T, text };
  };

  return {
    app,
    handler,
    fetch,
    runtime,
    config,
    clock,
    logs,
    db: target.db,
    databaseUrl: target.url,
    request,
    get: <T = Record<string, unknown>>(path: string, init?: RequestOptions) => request<T>("GET", path, init),
    post: <T = Record<string, unknown>>(path: string, body?: unknown, init?: RequestOptions) =>
      request<T>("POST", path, { ...init, ...(body === undefined ? {} : { body }) }),
    patch: <T = Record<string, unknown>>(path: string, body?: unknown, init?: RequestOptions) =>
      request<T>("PATCH", path, { ...init, ...(body === undefined ? {} : { body }) }),
    put: <T = Record<string, unknown>>(path: string, body?: unknown, init?: RequestOptions) =>
      request<T>("PUT", path, { ...init, ...(body === undefined ? {} : { body }) }),
    delete: <T = Record<string, unknown>>(path: string, init?: RequestOptions) =>
      request<T>("DELETE", path, init),
    async close() {
      await runtime.close();
      await target.dispose();
    },
  };
};
