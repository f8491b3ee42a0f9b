// The built server's log format: JSON lines when stdout is not a terminal (and in production, even at
// one), readable lines at a terminal in development. A real pseudo-terminal comes from util-linux's
// `script`; where it is missing those cases say so and skip.
import { type ChildProcess, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eventually } from "@agora/testing/eventually";
import { startProcess as startChild } from "@agora/testing/processes";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mainJs, startProcess, TEST_TOKEN_SECRET } from "../test/processes";

const startJs = fileURLToPath(new URL("../dist/start.js", import.meta.url));
const hasScript = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0;
/** Each test starts a built server: on a loaded machine (PGlite migrating, CI) that takes a while. */
const START_MS = 90_000;

/** Everything a production process needs to pass its configuration check (no peer is contacted). */
const production = (dataDir: string) => ({
  APP_ENV: "production",
  // Nothing listens there: the server logs that it is listening, then that it waits for the database.
  DATABASE_URL: "postgresql://agora@127.0.0.1:9/agora",
  DATABASE_STARTUP_TIMEOUT_MS: "0",
  DATA_DIR: dataDir,
  TOKEN_SECRET: TEST_TOKEN_SECRET,
  RESEND_API_KEY: "re_not_used_by_this_test",
  MAIL_FROM: "Agora <no-reply@example.com>",
  S3_ENDPOINT: "https://s3.example.com",
  S3_BUCKET: "agora",
  S3_ACCESS_KEY_ID: "test",
  S3_SECRET_ACCESS_KEY: "test-secret",
  LISTING_PLAN_PRICE_AMOUNT: "1000",
  LISTING_PLAN_CURRENCY: "USD",
  LISTING_PLAN_DURATION_DAYS: "30",
  HOST: "127.0.0.1",
  PORT: "0",
  LOG_LEVEL: "info",
});

const development = (dataDir: string) => ({
  APP_ENV: "development",
  DATA_DIR: dataDir,
  HOST: "127.0.0.1",
  PORT: "0",
  LOG_LEVEL: "info",
});

/** `node <entry>` with stdout a pseudo-terminal (`script`), and what it printed there. */
const startAtTerminal = (env: Record<string, string>, entry: string) =>
  startChild({
    command: "script",
    args: ["--quiet", "--return", "--command", `exec node ${entry}`, "/dev/null"],
    env: { TERM: "xterm", ...env },
  });

// biome-ignore lint/suspicious/noControlCharactersInRegex: the colours' escape sequences
const withoutColours = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, "").replaceAll("\r", "");

describe("the built server's log lines", () => {
  let dir: string;
  const children: ChildProcess[] = [];

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "agora-log-format-"));
  });
  afterEach(() => {
    for (const child of children.splice(0)) {
      child.kill("SIGKILL");
    }
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    "are JSON lines when stdout is not a terminal and APP_ENV=production",
    async () => {
      const api = startProcess(production(path.join(dir, "production")), mainJs);
      children.push(api.child);
      await eventually(
        () =>
          api.lines().some((line) => line.msg === "database unavailable at start-up; waiting") || undefined,
        START_MS,
      );

      const printed = api.output().trim().split("\n");
      expect(printed.length).toBeGreaterThan(1);
      for (const line of printed) {
        expect(() => JSON.parse(line), line).not.toThrow();
      }
      expect(api.lines()[0]).toMatchObject({ level: 30, msg: "agora api listening", env: "production" });
    },
    START_MS + 10_000,
  );

  it.skipIf(!hasScript)(
    "are readable at a terminal in development (`pnpm start`'s entry), one line per record",
    async () => {
      const api = startAtTerminal(development(path.join(dir, "development")), startJs);
      children.push(api.child);
      await eventually(() => withoutColours(api.output()).includes("agora api ready") || undefined, START_MS);

      const printed = withoutColours(api.output()).trim().split("\n");
      expect(printed.filter((line) => line.startsWith("{"))).toEqual([]);
      expect(printed.find((line) => line.includes("agora api listening"))).toMatch(
        /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: agora api listening \{"address":"http:\/\/127\.0\.0\.1:\d+","env":"development"/,
      );
      // Colour, as a terminal shows it.
      expect(api.output()).toContain("\u001b[32mINFO");
    },
    START_MS + 10_000,
  );

  it.skipIf(!hasScript)(
    "stay JSON lines at a terminal in production",
    async () => {
      const api = startAtTerminal(production(path.join(dir, "production-tty")), mainJs);
      children.push(api.child);
      await eventually(
        () => api.output().includes("database unavailable at start-up; waiting") || undefined,
        START_MS,
      );

      const printed = api.output().replaceAll("\r", "").trim().split("\n");
      for (const line of printed) {
        expect(() => JSON.parse(line), line).not.toThrow();
      }
    },
    START_MS + 10_000,
  );
});
