// Instructions per request, counted by Callgrind: a figure that does not depend on the machine's
// load, so a change that makes a request costlier shows as a number rather than as noise.
//
//   pnpm bench:callgrind             measure, print, compare with bench/baseline.json (fails past +10%)
//   pnpm bench:callgrind --update    measure and write the figures into bench/baseline.json
//
// Both servers (the built API and the raw reference, reference.ts) run under
// `valgrind --tool=callgrind --instr-atstart=no` on Node's interpreter only (no optimizing tiers, one
// thread: the counts then depend on the work, not on when a compiler or a GC thread happened to
// run). For each endpoint, after a warm-up, a burst of N requests and one of 2N are counted
// (`callgrind_control --zero` … `--dump`), sequentially on one keep-alive connection; the figure
// is (count(2N) − count(N)) / N, which cancels what a burst costs once (its connection, the dump).
// The interpreter makes JavaScript look dearer than it is under the JIT: read the figures as
// Agora against the reference and against the baseline, not as a CPU time.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sleep } from "@agora/testing/eventually";
import { freePort } from "@agora/testing/processes";
import pg from "pg";
import { v7 } from "uuid";
import { apiEnv, createDatabase, referenceArgs, repo, waitFor200 } from "./common.ts";
import { accessToken } from "./seed-community.ts";
import { seedMarketplace } from "./seed-marketplace.ts";

const baselineFile = path.join(repo, "bench/baseline.json");

/** Bursts of each size per endpoint; the lowest count of each size is kept. */
const REPEATS = 2;

/** A count may grow this much (a fraction) before the check fails. */
const CALLGRIND_TOLERANCE = 0.1;

/** Node's flags for both servers: interpreter only, one thread, no nondeterministic tier-up. */
const NODE_FLAGS = [
  "--no-opt",
  "--no-maglev",
  "--no-sparkplug",
  "--regexp-interpret-all",
  // V8's deterministic mode: one thread, fixed hash seeds, GC scheduled by allocation only.
  "--predictable",
  "--predictable-gc-schedule",
  "--max-semi-space-size=4",
  "--expose-gc",
  "--import",
  "./bench/src/callgrind-gc.ts",
];

/**
 * Valgrind's flags: nothing is instrumented until `callgrind_control -i on`; V8 still writes
 * machine code (regular expressions are interpreted, but WebAssembly, e.g. Prisma's query
 * compiler and TypeScript type stripping, is compiled), so self-modifying code is checked everywhere.
 */
const VALGRIND_FLAGS = [
  "--tool=callgrind",
  "--instr-atstart=no",
  // Counted: what runs in the event loop's callbacks for sockets (a request's parsing and
  // handling, its database replies, the promises they settle, the collections its allocations
  // trigger), for work handed back from other threads, and for setImmediate; not timers (the
  // metrics' event-loop sampling, the log's flush interval) nor the loop's own polling, whose
  // counts depend on how long the run took.
  "--toggle-collect=uv__stream_io",
  "--toggle-collect=uv__server_io",
  "--toggle-collect=uv__async_io",
  "--toggle-collect=uv__run_check",
  "--smc-check=all-non-file",
  "--vex-iropt-register-updates=allregs-at-mem-access",
];

type Endpoint =
  | "GET /health"
  | "GET /listings/{id}"
  | "POST /orders"
  | "POST /chat/conversations/{id}/messages";
const ALL_ENDPOINTS: Endpoint[] = [
  "GET /health",
  "GET /listings/{id}",
  "POST /orders",
  "POST /chat/conversations/{id}/messages",
];
/** `CALLGRIND_ONLY` (a regex over the endpoints' names) counts only those: for experiments, never with --update. */
const endpoints = (): Endpoint[] => {
  const only = process.env.CALLGRIND_ONLY ? new RegExp(process.env.CALLGRIND_ONLY) : undefined;

  return only ? ALL_ENDPOINTS.filter((endpoint) => only.test(endpoint)) : ALL_ENDPOINTS;
};

type CallgrindCounts = Record<Endpoint, number>;

type CallgrindResult = {
  /** Requests in the short burst (the long one is twice that). */
  requests: number;
  node: string;
  valgrind: string;
  agora: CallgrindCounts;
  reference: CallgrindCounts;
};

type Baseline = { callgrind?: CallgrindResult & { note?: string } } & Record<string, unknown>;

/** Why Callgrind cannot run here, or undefined when it can. */
export const callgrindUnavailable = (): string | undefined => {
  if (process.platform !== "linux") {
    return `valgrind runs on Linux only (this is ${process.platform})`;
  }
  for (const tool of ["valgrind", "callgrind_control"]) {
    const found = spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" });
    if (found.status !== 0) {
      return `${tool} is not installed (Debian/Ubuntu: apt-get install -y valgrind)`;
    }
  }

  return undefined;
};

type Call = { method: string; path: string; headers?: Record<string, string>; body?: string };

/** Sends `count` requests one after another on one keep-alive connection; each must answer 2xx. */
const burst = async (port: number, count: number, next: () => Call) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let i = 0; i < count; i += 1) {
      const call = next();
      const status = await new Promise<number>((resolve, reject) => {
        const outgoing = request(
          {
            host: "127.0.0.1",
            port,
            agent,
            method: call.method,
            path: call.path,
            headers: {
              ...call.headers,
              ...(call.body === undefined ? {} : { "content-length": Buffer.byteLength(call.body) }),
            },
            timeout: 120_000,
          },
          (response) => {
            response.resume();
            response.on("end", () => resolve(response.statusCode ?? 0));
            response.on("error", reject);
          },
        );
        outgoing.on("timeout", () => outgoing.destroy(new Error(`${call.method} ${call.path}: no answer`)));
        outgoing.on("error", reject);
        outgoing.end(call.body);
      });
      if (status < 200 || status >= 300) {
        throw new Error(`${call.method} ${call.path} answered ${status}: the measured path must succeed`);
      }
    }
  } finally {
    agent.destroy();
  }
};

/**
 * Sends a command to the Callgrind run `pid`. Valgrind names its control pipes after the $USER,
 * $LOGNAME and $HOST it was started with (the API reads HOST as its listen address), so the command
 * goes with the server's values of those.
 */
const control = (
  pid: number,
  server: Record<string, string | undefined>,
  directory: string,
  ...args: string[]
) => {
  const env = { ...process.env };
  for (const name of ["USER", "LOGNAME", "HOST"]) {
    env[name] = server[name];
  }
  const result = spawnSync("callgrind_control", [`--vgdb-prefix=${directory}/vgdb`, ...args, String(pid)], {
    encoding: "utf8",
    env,
    timeout: 120_000,
  });
  if (result.status !== 0 || !/OK/.test(result.stdout)) {
    throw new Error(`callgrind_control ${args.join(" ")} failed: ${result.stdout}${result.stderr}`);
  }
};

/** The instruction count of each dump `pid` wrote, in order. */
const dumps = (directory: string, pid: number): number[] =>
  readdirSync(directory)
    .map((name) => /^cg\.(\d+)\.(\d+)$/.exec(name))
    .filter((match): match is RegExpExecArray => match !== null && Number(match[1]) === pid)
    .sort((a, b) => Number(a[2]) - Number(b[2]))
    .map((match) => {
      const text = readFileSync(path.join(directory, match[0]), "utf8");
      const summary = /^summary:\s+(\d+)/m.exec(text) ?? /^totals:\s+(\d+)/m.exec(text);
      if (!summary) {
        throw new Error(`no summary line in ${match[0]}`);
      }

      return Number(summary[1]);
    });

/** Has the server (callgrind-gc.ts) collect all garbage, and waits until it did. */
const collectGarbage = async (pid: number, marker: string) => {
  const done = readFileSync(marker, "utf8").length;
  process.kill(pid, "SIGUSR2");
  for (let i = 0; i < 1200; i += 1) {
    if (readFileSync(marker, "utf8").length > done) {
      return;
    }
    await sleep(50);
  }
  throw new Error("the server did not collect garbage when asked (SIGUSR2)");
};

/** The dumps once there are `count` of them (the process writes them as it gets to the command). */
const dumped = async (directory: string, pid: number, count: number): Promise<number[]> => {
  for (let i = 0; i < 600; i += 1) {
    const found = dumps(directory, pid);
    if (found.length >= count) {
      return found;
    }
    await sleep(100);
  }
  throw new Error(
    `callgrind wrote ${dumps(directory, pid).length} of ${count} dumps (${readdirSync(directory).join(", ")})`,
  );
};

type Fixture = { listingId: string; menuItemId: string; conversationId: string; token: string };

/**
 * A small marketplace, one member with a live session, and a conversation of theirs with another
 * member (the counts do not depend on size).
 */
const prepareDatabase = async (databaseUrl: string, tokenSecret: string): Promise<Fixture> => {
  const env = { ...process.env, DATABASE_URL: databaseUrl, TOKEN_SECRET: tokenSecret, APP_ENV: "test" };
  for (const verb of ["migrate", "seed"]) {
    const result = spawnSync(process.execPath, ["apps/api/dist/cli.js", verb], {
      cwd: repo,
      env,
      encoding: "utf8",
    });
    if (result.status !== 0) {
      throw new Error(`agora ${verb} failed: ${result.stderr}`);
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { visibleListingIds } = await seedMarketplace(client, {
      providers: 20,
      listingsPerProvider: 5,
      itemsPerListing: 3,
    });
    const listingId = visibleListingIds[0] ?? "";
    const { rows } = await client.query<{ id: string }>(
      "SELECT id FROM menu_items WHERE listing_id = $1 ORDER BY id LIMIT 1",
      [listingId],
    );
    const userId = v7();
    const sessionId = v7();
    await client.query(
      `INSERT INTO users (id, email, username, display_name, password_hash, role, status, email_verified_at, created_at, updated_at)
       VALUES ($1, $2, $3, 'Callgrind Member', '', 'member', 'active', now(), now(), now())`,
      [userId, `callgrind-${userId}@example.com`, `cg${userId.slice(-12)}`],
    );
    await client.query("INSERT INTO sessions (id, user_id, created_at) VALUES ($1, $2, now())", [
      sessionId,
      userId,
    ]);
    const peerId = v7();
    await client.query(
      `INSERT INTO users (id, email, username, display_name, password_hash, role, status, email_verified_at, created_at, updated_at)
       VALUES ($1, $2, $3, 'Callgrind Peer', '', 'member', 'active', now(), now(), now())`,
      [peerId, `callgrind-${peerId}@example.com`, `cg${peerId.slice(-12)}`],
    );
    const conversationId = v7();
    await client.query(
      `INSERT INTO conversations (id, user_a_id, user_b_id, created_at, updated_at)
       VALUES ($1, least($2::uuid, $3::uuid), greatest($2::uuid, $3::uuid), now(), now())`,
      [conversationId, userId, peerId],
    );

    return {
      listingId,
      menuItemId: rows[0]?.id ?? "",
      conversationId,
      token: await accessToken(tokenSecret, userId, sessionId),
    };
  } finally {
    await client.end();
  }
};

const callsFor = (fixture: Fixture): Record<Endpoint, () => Call> => {
  let order = 0;

  return {
    "GET /health": () => ({ method: "GET", path: "/health" }),
    "GET /listings/{id}": () => ({ method: "GET", path: `/api/v1/listings/${fixture.listingId}` }),
    "POST /orders": () => {
      order += 1;

      return {
        method: "POST",
        path: "/api/v1/orders",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${fixture.token}`,
          "idempotency-key": `callgrind-${process.pid}-${Date.now()}-${order}`,
        },
        body: JSON.stringify({ menu_item_id: fixture.menuItemId, quantity: 1 }),
      };
    },
    "POST /chat/conversations/{id}/messages": () => ({
      method: "POST",
      path: `/api/v1/chat/conversations/${fixture.conversationId}/messages`,
      headers: { "content-type": "application/json", authorization: `Bearer ${fixture.token}` },
      body: JSON.stringify({ body: "Are we still on for dinner tonight?" }),
    }),
  };
};

/** Runs one server under Callgrind and counts each endpoint's instructions per request. */
const measureServer = async (
  command: string[],
  env: Record<string, string | undefined>,
  port: number,
  probe: string,
  calls: Record<Endpoint, () => Call>,
  options: { requests: number; warmup: number; directory: string; log: (line: string) => void },
): Promise<CallgrindCounts> => {
  const marker = path.join(options.directory, `gc-${port}`);
  writeFileSync(marker, "");
  const child = spawn(
    "valgrind",
    [
      ...VALGRIND_FLAGS,
      `--vgdb-prefix=${options.directory}/vgdb`,
      `--callgrind-out-file=${options.directory}/cg.%p`,
      `--log-file=${options.directory}/valgrind.%p.log`,
      ...command,
    ],
    { cwd: repo, env: { ...env, CALLGRIND_GC_FILE: marker }, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const pid = child.pid;
  if (pid === undefined) {
    throw new Error("valgrind did not start");
  }
  try {
    await waitFor200(`http://127.0.0.1:${port}${probe}`, child, 600_000, 250).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}\n${stderr}`);
    });
    // Warm-up, not instrumented (fast): code compiled to bytecode, caches and statements prepared.
    for (const endpoint of endpoints()) {
      await burst(port, options.warmup, calls[endpoint]);
    }
    control(pid, env, options.directory, "--instr=on");
    const result = {} as CallgrindCounts;
    for (const endpoint of endpoints()) {
      await burst(port, 5, calls[endpoint]);
      const before = dumps(options.directory, pid).length;
      const sizes = Array.from({ length: REPEATS }, () => [options.requests, options.requests * 2]).flat();
      for (const requests of sizes) {
        await collectGarbage(pid, marker);
        control(pid, env, options.directory, "--zero");
        await burst(port, requests, calls[endpoint]);
        control(pid, env, options.directory, "--dump");
      }
      const counts = (await dumped(options.directory, pid, before + sizes.length)).slice(before);
      // What disturbs a count only adds to it: each size's lowest count is its cleanest.
      const single = Math.min(...counts.filter((_, i) => i % 2 === 0));
      const double = Math.min(...counts.filter((_, i) => i % 2 === 1));
      result[endpoint] = Math.round((double - single) / options.requests);
      options.log(`${endpoint}: ${result[endpoint].toLocaleString("en-US")}`);
    }

    return result;
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    await exited;
    clearTimeout(timer);
  }
};

/** Measures both servers on a fresh database of `adminUrl`'s server. */
export const measureCallgrind = async (
  options: {
    adminUrl?: string;
    requests?: number;
    warmup?: number;
    log?: (line: string) => void;
    /** The API's entry (default apps/api/dist/main.js): a variant built beside it, for experiments. */
    api?: string;
    /** false: count the API only (experiments comparing variants of it). */
    reference?: boolean;
  } = {},
): Promise<CallgrindResult> => {
  const unavailable = callgrindUnavailable();
  if (unavailable) {
    throw new Error(unavailable);
  }
  if (!existsSync(path.join(repo, "apps/api/dist/main.js"))) {
    throw new Error("apps/api/dist is missing: build the API first (pnpm bench:callgrind does)");
  }
  const adminUrl = options.adminUrl ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const requests = options.requests ?? 20;
  const warmup = options.warmup ?? 100;
  const log = options.log ?? ((line: string) => process.stderr.write(`  callgrind ${line}\n`));
  const tokenSecret = "callgrind-secret-callgrind-secret-0123456789abcdef";
  const { admin, name: databaseName, url: databaseUrl } = await createDatabase(adminUrl, "agora_callgrind");
  const directory = mkdtempSync(path.join(tmpdir(), "agora-callgrind-"));
  try {
    const fixture = await prepareDatabase(databaseUrl.toString(), tokenSecret);
    const calls = callsFor(fixture);
    const base = { PATH: process.env.PATH, DATABASE_URL: databaseUrl.toString(), TOKEN_SECRET: tokenSecret };
    const apiPort = await freePort();
    const referencePort = await freePort();
    log("starting both servers under valgrind (a minute or so)…");
    // Side by side: each count is of its own process, whatever else the machine runs.
    const [agora, reference] = await Promise.all([
      measureServer(
        [process.execPath, ...NODE_FLAGS, options.api ?? "apps/api/dist/main.js"],
        apiEnv(
          { databaseUrl: base.DATABASE_URL, dataDir: directory, tokenSecret, port: apiPort },
          {
            LOG_LEVEL: "info",
            // Delivery would run beside the measured requests, whenever its timer fires.
            WORKER: "off",
            // The chat send's write limit stays on (its check is counted) but out of the bursts' reach.
            RATE_LIMIT_CHAT_MESSAGES_PER_HOUR: "1000000",
          },
        ),
        apiPort,
        "/ready",
        calls,
        { requests, warmup, directory, log: (line) => log(`agora ${line}`) },
      ),
      options.reference === false
        ? ({} as CallgrindCounts)
        : measureServer(
            [process.execPath, ...NODE_FLAGS, ...referenceArgs(referencePort)],
            base,
            referencePort,
            "/health",
            calls,
            { requests, warmup, directory, log: (line) => log(`reference ${line}`) },
          ),
    ]);
    const valgrind = spawnSync("valgrind", ["--version"], { encoding: "utf8" }).stdout.trim();

    return { requests, node: process.version, valgrind, agora, reference };
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`).catch(() => {});
    await admin.end();
    rmSync(directory, { recursive: true, force: true });
  }
};

const readBaseline = (): Baseline =>
  existsSync(baselineFile) ? (JSON.parse(readFileSync(baselineFile, "utf8")) as Baseline) : {};

const fmt = (n: number) => n.toLocaleString("en-US");

/** The table `pnpm bench` and `pnpm bench:callgrind` print, with the baseline when there is one. */
export const callgrindTable = (result: CallgrindResult, baseline = readBaseline().callgrind): string => {
  const header = ["instructions/request", "agora", "reference", "ratio", "baseline", "change"];
  const lines = endpoints().map((endpoint) => {
    const agora = result.agora[endpoint];
    const reference = result.reference[endpoint] ?? Number.NaN;
    const before = baseline?.agora[endpoint];

    return [
      endpoint,
      fmt(agora),
      Number.isNaN(reference) ? "-" : fmt(reference),
      Number.isNaN(reference) ? "-" : `${(agora / reference).toFixed(1)}x`,
      before === undefined ? "-" : fmt(before),
      before === undefined
        ? "-"
        : `${agora >= before ? "+" : ""}${(((agora - before) / before) * 100).toFixed(1)}%`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => (line[i] ?? "").length)));
  const render = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join("  ");

  return [
    render(header),
    render(widths.map((w) => "-".repeat(w))),
    ...lines.map(render),
    "",
    `Callgrind (${result.valgrind}), Node ${result.node} interpreter only (--no-opt --no-maglev --no-sparkplug --predictable, 4 MiB semi-spaces), counted in socket, thread-completion and setImmediate callbacks; (lowest count of ${REPEATS} bursts of ${2 * result.requests} requests − lowest of ${REPEATS} of ${result.requests}) / ${result.requests}, sequential on one keep-alive connection, after a warm-up; baseline: bench/baseline.json.`,
  ].join("\n");
};

/** The endpoints whose count grew past the tolerance over the baseline. */
const regressions = (result: CallgrindResult, baseline: CallgrindResult | undefined) =>
  baseline
    ? endpoints().filter((endpoint) => {
        const before = baseline.agora[endpoint];

        return before !== undefined && result.agora[endpoint] > before * (1 + CALLGRIND_TOLERANCE);
      })
    : [];

const main = async () => {
  const update = process.argv.includes("--update");
  if (
    update &&
    (process.env.CALLGRIND_ONLY || process.env.CALLGRIND_API || process.env.CALLGRIND_REFERENCE === "off")
  ) {
    process.stdout.write(
      "callgrind: --update measures everything: unset CALLGRIND_ONLY, CALLGRIND_API, CALLGRIND_REFERENCE\n",
    );
    process.exit(1);
  }
  const unavailable = callgrindUnavailable();
  if (unavailable) {
    process.stdout.write(`callgrind: skipped: ${unavailable}\n`);
    process.exit(process.env.CALLGRIND_REQUIRED === "1" ? 1 : 0);
  }
  const result = await measureCallgrind({
    adminUrl: process.env.BENCH_DATABASE_URL,
    requests: process.env.CALLGRIND_REQUESTS ? Number(process.env.CALLGRIND_REQUESTS) : undefined,
    api: process.env.CALLGRIND_API,
    reference: process.env.CALLGRIND_REFERENCE !== "off",
  });
  const baseline = readBaseline();
  process.stdout.write(`\n${callgrindTable(result, baseline.callgrind)}\n`);
  if (update) {
    baseline.callgrind = {
      note: "Instructions per request (pnpm bench:callgrind); CI fails when an agora figure grows more than 10% over this. Refresh with `pnpm bench:callgrind --update` and commit it with the change that moved it.",
      ...result,
    };
    writeFileSync(baselineFile, `${JSON.stringify(baseline, null, 2)}\n`);
    process.stdout.write("bench/baseline.json updated\n");

    return;
  }
  if (!baseline.callgrind) {
    process.stdout.write(
      "no callgrind figures in bench/baseline.json: run `pnpm bench:callgrind --update`\n",
    );
    process.exit(1);
  }
  const grown = regressions(result, baseline.callgrind);
  if (grown.length > 0) {
    process.stdout.write(
      `\ncallgrind: ${grown.join(", ")} grew more than ${CALLGRIND_TOLERANCE * 100}% over bench/baseline.json. If that is intended, run \`pnpm bench:callgrind --update\` and commit bench/baseline.json with the change.\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`callgrind: within ${CALLGRIND_TOLERANCE * 100}% of bench/baseline.json\n`);
};

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await main();
}
