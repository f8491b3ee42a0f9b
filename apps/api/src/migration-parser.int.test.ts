// The built API started on a fresh database applies every migration, those that run outside a
// transaction included, without loading PostgreSQL's parser (libpg-query): the db package's build
// split their statements (packages/db/scripts/bundle-migrations.mjs), and the parser, once loaded,
// would stay resident for the process's lifetime (docs/performance.md, "Memory"). A module hook
// preloaded into the process records every libpg-query module it resolves, and every hono module,
// which each start loads: so the recorder's silence about the parser means something.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadMigrations, runsInTransaction } from "@agora/db/migrator";
import { createTestDatabase, onPostgres, type TestDatabase } from "@agora/db/test/databases";
import { eventually } from "@agora/testing/eventually";
import { loadRecorder, readLoads } from "@agora/testing/otlp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProcess, TEST_TOKEN_SECRET } from "../test/processes";

// `pnpm start`'s entry: migrates and seeds first, so the same test runs on PGlite.
const startJs = fileURLToPath(new URL("../dist/start.js", import.meta.url));
const dist = fileURLToPath(new URL("../dist", import.meta.url));
const PARSER = "libpg-query";

describe("PostgreSQL's parser (libpg-query) in the API process", () => {
  let dir: string;
  let preload: string[];
  let target: TestDatabase | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "agora-parser-"));
    preload = loadRecorder(dir, [PARSER, "hono"]);
    target = onPostgres ? await createTestDatabase({ migrated: false }) : undefined;
  });
  afterAll(async () => {
    await target?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("the recorder sees the parser when a process loads it", () => {
    // The db package keeps it for its build; a process that imports it is recorded.
    const parser = createRequire(
      fileURLToPath(new URL("../../../packages/db/package.json", import.meta.url)),
    );
    const file = path.join(dir, "control.loads");
    const result = spawnSync(
      process.execPath,
      [
        ...preload,
        "--input-type=module",
        "-e",
        `await import(${JSON.stringify(pathToFileURL(parser.resolve(PARSER)).href)});`,
      ],
      { env: { PATH: process.env.PATH ?? "", AGORA_TEST_LOADS: file }, encoding: "utf8" },
    );
    expect(result.stderr).toBe("");
    expect(readLoads(file).map((load) => load.module)).toContain(PARSER);
  });

  it("is named nowhere in the bundle, which carries the migrations that run outside a transaction", () => {
    const files = readdirSync(dist).filter((name) => name.endsWith(".js"));
    const texts = files.map((name) => readFileSync(path.join(dist, name), "utf8"));
    expect(files.filter((_, index) => texts[index]?.includes(PARSER))).toEqual([]);
    const outside = loadMigrations().filter((migration) => !runsInTransaction(migration));
    expect(outside.length).toBeGreaterThan(0);
    for (const migration of outside) {
      expect(migration.statements?.length).toBeGreaterThan(1);
      expect(texts.some((text) => text.includes(migration.name))).toBe(true);
    }
  });

  it("is never loaded by `pnpm start` on a fresh database, which applies every migration", async () => {
    const loads = path.join(dir, "start.loads");
    const api = startProcess(
      {
        APP_ENV: "development",
        ...(target?.url ? { DATABASE_URL: target.url } : {}),
        DATA_DIR: path.join(dir, "data"),
        TOKEN_SECRET: TEST_TOKEN_SECRET,
        HOST: "127.0.0.1",
        PORT: "0",
        WORKER: "embedded",
        LOG_LEVEL: "info",
        // /ready then says the schema is at this build's level: every migration applied.
        READINESS_CHECKS: "enabled",
        AGORA_TEST_LOADS: loads,
      },
      startJs,
      preload,
    );
    try {
      // A cold start on a shared machine may take longer than origin()'s 15 s.
      const origin = await eventually(() => {
        if (api.child.exitCode !== null) {
          throw new Error(`exited ${api.child.exitCode}:\n${api.output()}`);
        }

        return api.lines().find((line) => line.msg === "agora api listening")?.address as string | undefined;
      }, 60_000);
      const ready = await eventually(async () => {
        const response = await fetch(`${origin}/ready`).catch(() => undefined);

        return response?.status === 200 ? ((await response.json()) as { data: unknown }) : undefined;
      }, 60_000);
      expect(ready.data).toMatchObject({ status: "ready", checks: { database: "ok", schema: "ok" } });
      // pino writes asynchronously to a pipe: the line may trail the first ready answer.
      const prepared = await eventually(() => api.lines().find((line) => line.msg === "database ready"));
      expect(prepared).toMatchObject({ migrationsApplied: loadMigrations().length });
      api.child.kill("SIGTERM");
      expect(await api.exited).toBe(0);
    } finally {
      api.child.kill("SIGKILL");
    }
    const modules = readLoads(loads).map((load) => load.module);
    expect(modules).toContain("hono");
    expect(modules).not.toContain(PARSER);
  }, 90_000);
});
