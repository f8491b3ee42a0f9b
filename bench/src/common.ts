// What the bench's scripts share to run the servers they measure: the repository's root, CPU
// pinning, the built API's and the raw reference's commands and environment, starting a process
// (its output to the terminal or to a log file), waiting until it answers 200, stopping it, and
// one run of the load generator (load.ts). A free port and sleep are @agora/testing's.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writeLimitKinds } from "@agora/domain/common/write-limits";
import { writeLimitVariable } from "@agora/process/settings";
import { sleep } from "@agora/testing/eventually";
import pg from "pg";
import type { LoadResult } from "./results.ts";

export const repo = fileURLToPath(new URL("../..", import.meta.url));

/** Whether taskset can pin a process to a CPU here (Linux with util-linux): the bench runs unpinned without. */
export const hasTaskset = spawnSync("taskset", ["-c", "0", "true"]).status === 0;

/** `args` pinned to `cpu` with taskset (servers on CPU 0, the load generator on CPU 1), as they are without it. */
export const pinned = (cpu: number, args: string[]) =>
  hasTaskset ? ["taskset", "-c", String(cpu), ...args] : args;

/** A figure for the tables: thousands separated, `digits` after the point. */
export const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/**
 * Node's flag for the API as the image's CMD passes it (a V8 flag NODE_OPTIONS may not carry): the
 * old generation grows by 50% past what a collection left, as V8 grows it in a small container
 * (docs/performance.md, "Memory").
 */
export const API_NODE_FLAGS = ["--heap-growing-percent=50"];

/** The built API's entry (`start.js` migrates and seeds first; `main.js` serves at once), as node's arguments. */
export const apiArgs = (entry: "start.js" | "main.js" = "start.js", nodeFlags = API_NODE_FLAGS) => [
  ...nodeFlags,
  `apps/api/dist/${entry}`,
];

/**
 * The headers every Agora answer carries besides the body's and the connection's (the security
 * headers, `Cache-Control`), read off the running API's answer so that the reference's duties
 * send exactly them: JSON `[name, value]` pairs.
 */
export const agoraDutyHeaders = async (apiUrl: string): Promise<string> => {
  const answer = await fetch(`${apiUrl}/health`);
  await answer.arrayBuffer();
  const perAnswer = new Set([
    "date",
    "connection",
    "keep-alive",
    "content-length",
    "content-type",
    "x-request-id",
  ]);

  return JSON.stringify([...answer.headers].filter(([name]) => !perAnswer.has(name)));
};

/** The raw reference server (reference.ts, run from its TypeScript source) on `port`, as node's arguments. */
export const referenceArgs = (port: number) => [
  "--import",
  "./bench/src/resolve-ts.ts",
  "bench/src/reference.ts",
  String(port),
];

/**
 * The built API's environment as the bench runs it: development defaults on loopback, and the
 * listing plan the seeded marketplace is priced by; `extra` adds to it or replaces.
 */
export const apiEnv = (
  {
    databaseUrl,
    dataDir,
    tokenSecret,
    port,
  }: { databaseUrl: string; dataDir: string; tokenSecret: string; port?: number },
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> => ({
  PATH: process.env.PATH,
  APP_ENV: "development",
  HOST: "127.0.0.1",
  ...(port === undefined ? {} : { PORT: String(port) }),
  DATABASE_URL: databaseUrl,
  DATA_DIR: dataDir,
  TOKEN_SECRET: tokenSecret,
  LISTING_PLAN_PRICE_AMOUNT: "990",
  LISTING_PLAN_CURRENCY: "USD",
  LISTING_PLAN_DURATION_DAYS: "30",
  ...extra,
});

/**
 * The sign-in limit per address off, and every per-member write limit on (its check is part of what
 * is measured) but out of reach: a few hundred bench members do the traffic of thousands.
 */
export const LIMITS_OUT_OF_REACH: Record<string, string> = {
  RATE_LIMIT_AUTH_PER_IP: "0",
  ...Object.fromEntries(writeLimitKinds.map((kind) => [writeLimitVariable(kind), "1000000"])),
};

/**
 * Starts node with `args` in the repository (on `cpu` when given) with exactly `env`: its stderr
 * to the terminal (a server's failure shows), its stdout dropped, or all of it dropped (`quiet`).
 */
export const startNode = (
  args: string[],
  env: Record<string, string | undefined>,
  { cpu, quiet = false }: { cpu?: number; quiet?: boolean } = {},
): ChildProcess => {
  const command = [process.execPath, ...args];
  const [file = process.execPath, ...rest] = cpu === undefined ? command : pinned(cpu, command);

  return spawn(file, rest, { cwd: repo, env, stdio: quiet ? "ignore" : ["ignore", "ignore", "inherit"] });
};

/** A process whose output goes to a log file: the proof's and the suites' servers. */
export type Managed = {
  name: string;
  child: ChildProcess;
  /** Its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** The last lines it wrote (for failures). */
  tail(lines?: number): string;
};

/** Starts `command` with its output appended to `<dir>/<name>.log`. */
export const startManaged = (
  name: string,
  command: string[],
  env: Record<string, string>,
  { dir, cwd }: { dir: string; cwd: string },
): Managed => {
  const logFile = path.join(dir, `${name}.log`);
  const fd = openSync(logFile, "a");
  const [file = "", ...args] = command;
  const child = spawn(file, args, { cwd, env, stdio: ["ignore", fd, fd] });
  closeSync(fd);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));

  return {
    name,
    child,
    exited,
    tail: (lines = 20) =>
      existsSync(logFile) ? readFileSync(logFile, "utf8").trimEnd().split("\n").slice(-lines).join("\n") : "",
  };
};

/** Stops `process` with `signal` and waits for its exit code. */
export const stop = async (process: Managed, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> => {
  if (process.child.exitCode === null && process.child.signalCode === null) {
    process.child.kill(signal);
  }

  return process.exited;
};

/**
 * Polls `url` every `intervalMs` until it answers 200; fails after `timeoutMs`, or as soon as
 * `process` (a managed process, or a bare child: "server") exits, with its last lines when it has a log.
 */
export const waitFor200 = async (
  url: string,
  process?: Managed | ChildProcess,
  timeoutMs = 30_000,
  intervalMs = 100,
) => {
  const managed = process && "tail" in process ? process : undefined;
  const child = managed ? managed.child : (process as ChildProcess | undefined);
  const tail = () => (managed ? `:\n${managed.tail()}` : "");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null) {
      throw new Error(`${managed?.name ?? "server"} exited with ${child.exitCode}${tail()}`);
    }
    const status = await fetch(url)
      .then(async (response) => {
        await response.arrayBuffer();

        return response.status;
      })
      .catch(() => 0);
    if (status === 200) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(`${url} did not answer 200 in time${tail()}`);
    }
    await sleep(intervalMs);
  }
};

/**
 * A fresh database `<prefix>_<ms>` on `adminUrl`'s server: the admin connection that made it (the
 * caller drops the database with it and ends it), its name, and its URL.
 */
export const createDatabase = async (adminUrl: string, prefix: string) => {
  const name = `${prefix}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;

  return { admin, name, url };
};

/**
 * One run of the load generator (load.ts, autocannon) on CPU 1, the servers' CPU left to them; its
 * last line is the result. Fails when it fails or outlasts `timeoutSeconds`.
 */
export const runLoad = (spec: Record<string, unknown>, timeoutSeconds: number): LoadResult => {
  const [file = process.execPath, ...args] = pinned(1, [
    process.execPath,
    path.join(repo, "bench/src/load.ts"),
    JSON.stringify(spec),
  ]);
  const result = spawnSync(file, args, { encoding: "utf8", timeout: timeoutSeconds * 1000 });
  if (result.status !== 0) {
    throw new Error(`load generator failed: ${result.stderr}`);
  }

  return JSON.parse(result.stdout.trim().split("\n").pop() ?? "{}") as LoadResult;
};
