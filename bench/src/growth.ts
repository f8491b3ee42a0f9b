// `pnpm bench:growth`: growth curves. One database grown in steps (GROWTH_SIZES, default 1,10,100
// times the bench's data; growth-seed.ts has the model), and after each step the read endpoints
// whose cost could follow the data measured at a fixed load (10 connections, autocannon in
// load.ts pinned to CPU 1, the API to CPU 0): p50/p99 and req/s per size, and the p99 ratio per
// tenfold (goal ≤ 1.5). A step is skipped, with its reason printed, when its projected size or
// seeding time (from the previous step's) is beyond GROWTH_MAX_GB (25) or GROWTH_MAX_SEED_MINUTES
// (15), or the disk's free space. docs/performance.md, "Growth curves", has the method and figures.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sleep } from "@agora/testing/eventually";
import { freePort } from "@agora/testing/processes";
import pg from "pg";
import { searchWords, statuses } from "./admin.ts";
import {
  apiArgs,
  apiEnv,
  createDatabase,
  fmt,
  hasTaskset,
  repo,
  runLoad,
  startNode,
  waitFor200,
} from "./common.ts";
import { type Dataset, type GrowthTokens, growStep, growthTokens, sizesAt } from "./growth-seed.ts";
import type { LoadResult } from "./results.ts";
import { searchRequests, searchTerms } from "./varied.ts";

export type GrowthOptions = {
  /** A database URL on the server to create the growth database on (its own database is not touched). */
  adminUrl?: string;
  /** Scales, in order (1 = today's bench data). */
  sizes?: number[];
  /** Only the endpoints whose name matches (and only the data they need is seeded). */
  only?: RegExp;
  durationSeconds?: number;
  warmupSeconds?: number;
  rounds?: number;
  connections?: number;
  maxGigabytes?: number;
  maxSeedMinutes?: number;
  log?: (line: string) => void;
};

type Endpoint = {
  name: string;
  datasets: Dataset[];
  /** The request spec for load.ts at the current scale. */
  spec: (
    tokens: GrowthTokens,
    scale: number,
    files: { search: string },
  ) => { path: string } & Record<string, unknown>;
};

const TOKEN_SECRET = "bench-secret-bench-secret-bench-secret-0123456789";
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const endpoints: Endpoint[] = [
  {
    name: "GET /community/feed",
    datasets: ["community"],
    spec: (tokens) => ({ path: "/api/v1/community/feed", headerSets: tokens.feed.map(bearer) }),
  },
  {
    name: "GET /listings?q (Zipf, cache and coalescing off)",
    datasets: ["marketplace"],
    spec: (_tokens, _scale, files) => ({ path: "/api/v1/listings", pathsFile: files.search }),
  },
  {
    name: "GET /notifications",
    datasets: ["inbox"],
    spec: (tokens) => ({ path: "/api/v1/notifications", headerSets: tokens.inbox.map(bearer) }),
  },
  {
    name: "GET /chat/conversations",
    datasets: ["inbox"],
    spec: (tokens) => ({ path: "/api/v1/chat/conversations", headerSets: tokens.inbox.map(bearer) }),
  },
  {
    name: "GET /chat/…/messages (first page)",
    datasets: ["history"],
    spec: (tokens) => ({
      path: `/api/v1/chat/conversations/${tokens.history[0]?.conversationId}/messages`,
      paths: tokens.history.map((h) => `/api/v1/chat/conversations/${h.conversationId}/messages`),
      headerSets: tokens.history.map((h) => bearer(h.token)),
    }),
  },
  {
    name: "GET /chat/…/messages?before (half-way down)",
    datasets: ["history"],
    spec: (tokens, scale) => {
      const before = Math.floor(sizesAt(scale).historyMessages / 2);

      return {
        path: `/api/v1/chat/conversations/${tokens.history[0]?.conversationId}/messages?before=${before}`,
        paths: tokens.history.map(
          (h) => `/api/v1/chat/conversations/${h.conversationId}/messages?before=${before}`,
        ),
        headerSets: tokens.history.map((h) => bearer(h.token)),
      };
    },
  },
  {
    name: "GET /admin/orders?q&status",
    datasets: ["orders"],
    spec: (tokens) => ({
      path: "/api/v1/admin/orders",
      headers: bearer(tokens.admin),
      // The first ten of the admin scenario's item words.
      paths: searchWords
        .slice(0, 10)
        .flatMap((word) =>
          [...statuses, undefined].map(
            (s) => `/api/v1/admin/orders?q=${word}${s === undefined ? "" : `&status=${s}`}`,
          ),
        ),
    }),
  },
];

/**
 * The search requests: Zipf (s = 1) over the words and adjacent word pairs of the 1× listings'
 * text in a seeded order, as the bench's varied search (varied.ts); built once, so every size gets the same.
 */
const searchFile = async (client: pg.Client, dir: string) => {
  const { terms } = await searchTerms(client);
  const file = path.join(dir, "search.txt");
  writeFileSync(file, `${searchRequests(terms, 100_000).join("\n")}\n`);

  return file;
};

/**
 * One connection, one request at a time (the spec's paths and header sets in turn): the median
 * latency, less moved by a loaded machine's scheduling than a p99 under load.
 */
const serial = async (url: string, spec: Record<string, unknown>, count = 60) => {
  const paths =
    (spec.paths as string[] | undefined) ??
    (typeof spec.pathsFile === "string" && spec.pathsFile !== ""
      ? readFileSync(spec.pathsFile, "utf8").split("\n").filter(Boolean).slice(0, count)
      : [String(spec.path)]);
  const headerSets = (spec.headerSets as Record<string, string>[] | undefined) ?? [{}];
  const took: number[] = [];
  for (let i = 0; i < count + 5; i += 1) {
    const request = () =>
      fetch(`${url}${paths[i % paths.length]}`, {
        headers: {
          ...(spec.headers as Record<string, string> | undefined),
          ...headerSets[i % headerSets.length],
        },
      }).then((response) => response.arrayBuffer());
    const started = performance.now();
    // A kept-alive connection the server closed meanwhile fails once: the request is sent again.
    await request().catch(request);
    // The first few warm the connection and the statements.
    if (i >= 5) {
      took.push(performance.now() - started);
    }
  }
  took.sort((a, b) => a - b);

  return took[Math.floor(took.length / 2)] ?? Number.NaN;
};

type Row = { endpoint: string; scale: number; result: LoadResult; serialP50: number };
type Step = {
  scale: number;
  skipped?: string;
  seedSeconds?: Record<string, number>;
  databaseBytes?: number;
  loadAverage?: number[];
};

export const runGrowth = async (options: GrowthOptions = {}): Promise<{ table: string; json: unknown }> => {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const sizes = options.sizes ?? [1, 10, 100];
  const durationSeconds = options.durationSeconds ?? 5;
  const warmupSeconds = options.warmupSeconds ?? 1;
  const rounds = Math.max(1, options.rounds ?? 3);
  const connections = options.connections ?? 10;
  const maxBytes = (options.maxGigabytes ?? 25) * 1024 ** 3;
  const maxSeedSeconds = (options.maxSeedMinutes ?? 15) * 60;
  const selected = endpoints.filter((endpoint) => !options.only || options.only.test(endpoint.name));
  const datasets = new Set(selected.flatMap((endpoint) => endpoint.datasets));
  if (!existsSync(path.join(repo, "apps/api/dist/start.js"))) {
    throw new Error("apps/api/dist is missing: `pnpm bench:growth` builds it first");
  }
  const adminUrl = options.adminUrl ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const { admin, name: databaseName, url: databaseUrl } = await createDatabase(adminUrl, "agora_growth");
  const dataDir = mkdtempSync(path.join(tmpdir(), "agora-growth-"));
  const port = await freePort();
  const apiUrl = `http://127.0.0.1:${port}`;
  const api = startNode(
    apiArgs(),
    apiEnv(
      { databaseUrl: databaseUrl.toString(), dataDir, tokenSecret: TOKEN_SECRET, port },
      {
        NODE_OPTIONS: "--max-semi-space-size=4",
        DATABASE_POOL_MAX: "10",
        LOG_LEVEL: "warn",
        WORKER: "off",
        // The search measures its queries: neither shared in flight nor kept.
        LISTINGS_COALESCE: "off",
        LISTINGS_CACHE_ENTRIES: "0",
        RATE_LIMIT_AUTH_PER_IP: "0",
        RATE_LIMIT_SEARCHES_PER_HOUR: "1000000",
      },
    ),
    { cpu: 0 },
  );
  // Interrupted (Ctrl-C, or a runner's timeout): the API stopped and the database dropped all the same.
  const interrupted = async () => {
    api.kill("SIGTERM");
    await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`).catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(130);
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);
  const rows: Row[] = [];
  const steps: Step[] = [];
  const client = new pg.Client({ connectionString: databaseUrl.toString() });
  try {
    await waitFor200(`${apiUrl}/ready`, api, 60_000);
    await client.connect();
    let current = 0;
    let tokens: GrowthTokens | undefined;
    let files: { search: string } = { search: "" };
    let last: { scale: number; from: number; seconds: number; bytes: number } | undefined;
    for (const scale of sizes) {
      if (scale <= current) {
        continue;
      }
      if (last) {
        // Rows added scale linearly with the scale: project this step from the last one.
        const projectedSeconds = (last.seconds * (scale - current)) / Math.max(last.scale - last.from, 1e-9);
        const projectedBytes = (last.bytes * scale) / last.scale;
        const free = statfsSync(repo).bavail * statfsSync(repo).bsize;
        const reason =
          projectedBytes > maxBytes
            ? `projected ${fmt(projectedBytes / 1024 ** 3, 1)} GB > ${fmt(maxBytes / 1024 ** 3)} GB allowed`
            : projectedBytes - last.bytes > free - 10 * 1024 ** 3
              ? `projected ${fmt((projectedBytes - last.bytes) / 1024 ** 3, 1)} GB more, ${fmt(free / 1024 ** 3, 1)} GB free (10 GB kept)`
              : projectedSeconds > maxSeedSeconds
                ? `projected seeding ${fmt(projectedSeconds / 60, 1)} min > ${fmt(maxSeedSeconds / 60)} min allowed`
                : undefined;
        if (reason) {
          log(`  ${scale}×: skipped: ${reason}`);
          steps.push({ scale, skipped: reason });
          continue;
        }
      }
      log(`  ${scale}×: seeding (${[...datasets].join(", ")})…`);
      const started = performance.now();
      const seedSeconds = await growStep(client, current, scale, datasets, log);
      const seconds = (performance.now() - started) / 1000;
      seedSeconds.total = seconds;
      const { rows: size } = await client.query<{ bytes: string }>(
        "SELECT pg_database_size(current_database()) AS bytes",
      );
      const bytes = Number(size[0]?.bytes ?? 0);
      log(`  ${scale}×: seeded in ${fmt(seconds, 1)} s; database ${fmt(bytes / 1024 ** 3, 2)} GB`);
      if (!tokens) {
        tokens = await growthTokens(client, TOKEN_SECRET, datasets);
        files = { search: datasets.has("marketplace") ? await searchFile(client, dataDir) : "" };
      }
      last = { scale, from: current, seconds, bytes };
      current = scale;
      for (const endpoint of selected) {
        const spec = {
          ...endpoint.spec(tokens, scale, files),
          connections,
          durationSeconds,
          warmupSeconds,
        };
        const measured: LoadResult[] = [];
        for (let round = 0; round < rounds; round += 1) {
          measured.push(
            runLoad({ ...spec, url: `${apiUrl}${String(spec.path)}` }, durationSeconds + warmupSeconds + 120),
          );
        }
        // The median round by p99: one noisy round on a shared machine does not decide the figure.
        measured.sort((a, b) => a.p99 - b.p99);
        const result = measured[Math.floor(measured.length / 2)] ?? measured[0];
        const serialP50 = await serial(apiUrl, spec);
        if (result) {
          rows.push({ endpoint: endpoint.name, scale, result, serialP50 });
          log(
            `  ${scale}× ${endpoint.name}: ${fmt(result.requestsPerSecond)} req/s, p50 ${fmt(result.p50, 1)} ms, p99 ${fmt(result.p99, 1)} ms; one at a time p50 ${fmt(serialP50, 1)} ms`,
          );
        }
      }
      steps.push({ scale, seedSeconds, databaseBytes: bytes, loadAverage: loadavg() });
    }
  } finally {
    await client.end().catch(() => {});
    const exited = new Promise((resolve) => api.once("exit", resolve));
    api.kill("SIGTERM");
    await Promise.race([exited, sleep(5000)]);
    await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`).catch(() => {});
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
    process.off("SIGINT", interrupted);
    process.off("SIGTERM", interrupted);
  }

  const measuredScales = steps.filter((step) => !step.skipped).map((step) => step.scale);
  const header = [
    "endpoint",
    ...measuredScales.flatMap((s) => [`${s}× req/s`, `${s}× p50`, `${s}× p99`, `${s}× 1-by-1`]),
    ...measuredScales.slice(1).map((s, i) => `p99 ×${fmt(s / (measuredScales[i] ?? 1))}`),
    "non-2xx",
  ];
  const lines = selected.map((endpoint) => {
    const row = (s: number) => rows.find((r) => r.endpoint === endpoint.name && r.scale === s);
    const of = (s: number) => row(s)?.result;
    const failed = measuredScales.reduce((sum, s) => {
      const counts = of(s)?.statusCounts ?? {};
      return (
        sum + (counts["4xx"] ?? 0) + (counts["5xx"] ?? 0) + (counts.errors ?? 0) + (counts.timeouts ?? 0)
      );
    }, 0);

    return [
      endpoint.name,
      ...measuredScales.flatMap((s) => {
        const r = of(s);
        return r
          ? [fmt(r.requestsPerSecond), fmt(r.p50, 1), fmt(r.p99, 1), fmt(row(s)?.serialP50 ?? Number.NaN, 1)]
          : ["-", "-", "-", "-"];
      }),
      ...measuredScales.slice(1).map((s, i) => {
        const [now, before] = [of(s)?.p99, of(measuredScales[i] ?? 0)?.p99];
        // p99 ratio per tenfold of the data (a step of other than ten is normalised to it).
        const tenfold = Math.log10(s / (measuredScales[i] ?? 1));
        return now && before ? `${fmt((now / before) ** (1 / tenfold), 2)}` : "-";
      }),
      String(failed),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => (line[i] ?? "").length)));
  const render = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join("  ");
  const stepLines = steps.map((step) =>
    step.skipped
      ? `${step.scale}×: skipped: ${step.skipped}`
      : `${step.scale}×: seeded in ${fmt(step.seedSeconds?.total ?? 0, 1)} s (${Object.entries(
          step.seedSeconds ?? {},
        )
          .filter(([name]) => name !== "total")
          .map(([name, s]) => `${name} ${fmt(s, 1)} s`)
          .join(", ")}); database ${fmt((step.databaseBytes ?? 0) / 1024 ** 3, 2)} GB; load average after ${(
          step.loadAverage ?? []
        )
          .map((n) => n.toFixed(1))
          .join(" / ")}`,
  );
  const note = `${connections} connections, median (by p99) of ${rounds} rounds of ${durationSeconds}s after ${warmupSeconds}s warm-up; ${hasTaskset ? "API on CPU 0, load generator on CPU 1 (taskset)" : "no taskset: unpinned"}; 1-by-1: median latency of 60 requests one at a time on one connection; p99 ×10: the p99 ratio per tenfold of the data (goal ≤ 1.5); Node ${process.version}.`;
  const table = [
    render(header),
    render(widths.map((w) => "-".repeat(w))),
    ...lines.map(render),
    "",
    ...stepLines,
    note,
  ].join("\n");

  return { table, json: { note, steps, rows } };
};

const isMain =
  process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1]);
/** The growth run's options from the environment (GROWTH_*; BENCH_DATABASE_URL): the CLI's and `pnpm bench --full`'s. */
export const growthOptionsFromEnv = (env: NodeJS.ProcessEnv = process.env): GrowthOptions => ({
  adminUrl: env.BENCH_DATABASE_URL,
  sizes: (env.GROWTH_SIZES ?? "1,10,100")
    .split(",")
    .map(Number)
    .filter((n) => n > 0),
  only: env.GROWTH_ONLY ? new RegExp(env.GROWTH_ONLY, "i") : undefined,
  durationSeconds: Number(env.GROWTH_DURATION ?? 5),
  warmupSeconds: Number(env.GROWTH_WARMUP ?? 1),
  rounds: Number(env.GROWTH_ROUNDS ?? 3),
  maxGigabytes: Number(env.GROWTH_MAX_GB ?? 25),
  maxSeedMinutes: Number(env.GROWTH_MAX_SEED_MINUTES ?? 15),
});

if (isMain) {
  const { table, json } = await runGrowth(growthOptionsFromEnv());
  process.stdout.write(`\n${table}\n`);
  mkdirSync(path.join(repo, "bench/results"), { recursive: true });
  writeFileSync(path.join(repo, "bench/results/growth.json"), JSON.stringify(json, null, 2));
}
