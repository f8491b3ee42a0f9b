// `pnpm bench`: starts the built API on a fresh PostgreSQL database and a raw reference server,
// drives each scenario with autocannon on loopback, and prints req/s and p50/p99 beside the
// reference measured in the same run. Servers are pinned to CPU 0 and the load generator to CPU 1
// (taskset) so they do not fight over one core. Then the suites (suites.ts) run. `pnpm bench` runs
// the core tier, `pnpm bench --full` everything, BENCH_ONLY what it names (tiers.ts). Each run writes
// bench/results/<timestamp>.json and .svg, and latest.json and latest.svg (results.ts).
// BENCH_VARIANT=<a copy of apps/api/dist built from other code> measures that build side by side
// with the API as built, on the same rows in the same run (docs/performance.md, "Side by side").
import type { ChildProcess } from "node:child_process";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sleep } from "@agora/testing/eventually";
import { freePort } from "@agora/testing/processes";
import {
  API_NODE_FLAGS,
  agoraDutyHeaders,
  apiArgs,
  apiEnv as benchApiEnv,
  createDatabase,
  fmt,
  hasTaskset,
  LIMITS_OUT_OF_REACH,
  referenceArgs,
  repo,
  runLoad,
  startNode,
  waitFor200,
} from "./common.ts";
import { fmtMiB, rssMiB, watchRss } from "./memory.ts";
import {
  type BenchResult,
  type LoadResult,
  type ResultRow,
  type SideBySide,
  writeResult,
} from "./results.ts";
import { scenarios } from "./scenarios.ts";
import { suites } from "./suites.ts";
import { isSelected, isSuiteSelected, selectionFrom, tierOf } from "./tiers.ts";

const env = process.env;
const durationSeconds = Number(env.BENCH_DURATION ?? 5);
const warmupSeconds = Number(env.BENCH_WARMUP ?? 1);
const rounds = Math.max(1, Number(env.BENCH_ROUNDS ?? 3));
// The reference also does what every Agora answer must (bench/src/reference.ts, "duties").
const referenceDuties = env.BENCH_REFERENCE_DUTIES === "1";
const selection = selectionFrom(process.argv.slice(2), env);
const adminUrl = env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

const BENCH_TOKEN_SECRET = "bench-secret-bench-secret-bench-secret-0123456789";

/**
 * BENCH_VARIANT: another build of the API (a copy of apps/api/dist made from other code, kept under
 * apps/api so that its packages resolve, e.g. apps/api/exp/<name>), started beside the API on the
 * same database and the same CPU. Each round of a row then measures the API as built (A), the
 * variant (B) and the reference, in alternating order (A B ref, then ref B A), and each row gets
 * both builds' median req/s and p99 and the difference. Rows served by a process a scenario starts
 * itself (coalescing off…) are measured on the API as built only.
 */
const variantDirectory = env.BENCH_VARIANT ? path.resolve(repo, env.BENCH_VARIANT) : undefined;

/** The median of `values` (of an even count, the mean of the two middle ones). */
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;

  return sorted.length % 2 === 1
    ? (sorted[Math.floor(middle)] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/** A side-by-side row from its rounds: each build's median req/s and p99 and the difference. */
const sideBySide = (rounds: SideBySide["rounds"]): SideBySide => {
  const medians = (side: "built" | "variant") => ({
    requestsPerSecond: median(rounds.map((round) => round[side].requestsPerSecond)),
    p99: median(rounds.map((round) => round[side].p99)),
  });
  const built = medians("built");
  const variant = medians("variant");

  return {
    built,
    variant,
    requestsPerSecondGain: built.requestsPerSecond / Math.max(variant.requestsPerSecond, 1) - 1,
    p99Gain: variant.p99 / Math.max(built.p99, 0.001) - 1,
    pairedGain:
      median(
        rounds.map((round) => round.built.requestsPerSecond / Math.max(round.variant.requestsPerSecond, 1)),
      ) - 1,
    wins: rounds.filter((round) => round.built.requestsPerSecond > round.variant.requestsPerSecond).length,
    rounds,
  };
};

/** One run of the load generator, given the time the run's settings need. */
const load = (spec: Record<string, unknown>): LoadResult =>
  runLoad(spec, durationSeconds + warmupSeconds + 60);

/**
 * Node's own flags for the API, as the image's CMD passes them (API_NODE_FLAGS, common.ts says
 * why); BENCH_NODE_FLAGS replaces them (space-separated; empty for none).
 */
const apiNodeFlags =
  env.BENCH_NODE_FLAGS === undefined ? API_NODE_FLAGS : env.BENCH_NODE_FLAGS.split(" ").filter(Boolean);

/** The commit the run measured, and whether the tree had uncommitted changes. */
const gitState = () => {
  const git = (...args: string[]) => spawnSync("git", args, { cwd: repo, encoding: "utf8" });
  const head = git("rev-parse", "HEAD");

  return {
    gitCommit: head.status === 0 ? head.stdout.trim() : null,
    gitDirty: git("status", "--porcelain", "--untracked-files=no").stdout.trim() !== "",
  };
};

const percent = (fraction: number) => `${fraction >= 0 ? "+" : ""}${fmt(fraction * 100, 1)}%`;

/** The side-by-side rows as a table, or undefined when the run had no variant. */
const sideBySideTable = (rows: readonly ResultRow[]): string | undefined => {
  const measured = rows.filter((row) => row.sideBySide);
  if (measured.length === 0) {
    return undefined;
  }
  const header = [
    "scenario",
    "A req/s",
    "B req/s",
    "req/s A vs B",
    "paired",
    "A wins",
    "A p99",
    "B p99",
    "p99 A vs B",
    "rounds A|B req/s",
  ];
  const lines = measured.map(({ name, sideBySide: side }) => {
    const {
      built,
      variant,
      requestsPerSecondGain,
      p99Gain,
      pairedGain,
      wins,
      rounds: each,
    } = side as SideBySide;

    return [
      name,
      fmt(built.requestsPerSecond),
      fmt(variant.requestsPerSecond),
      percent(requestsPerSecondGain),
      percent(pairedGain),
      `${wins}/${each.length}`,
      fmt(built.p99, 1),
      fmt(variant.p99, 1),
      percent(p99Gain),
      each
        .map((round) => `${fmt(round.built.requestsPerSecond)}|${fmt(round.variant.requestsPerSecond)}`)
        .join(" "),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => (line[i] ?? "").length)));
  const render = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join("  ");

  return [render(header), render(widths.map((w) => "-".repeat(w))), ...lines.map(render)].join("\n");
};

const main = async () => {
  const began = performance.now();
  const startedAt = new Date().toISOString();
  const loadAtStart = loadavg();
  // The tree measured: as it is when the run starts.
  const git = gitState();
  if (!existsSync(path.join(repo, "apps/api/dist/start.js"))) {
    throw new Error("apps/api/dist is missing: `pnpm bench` builds it first");
  }
  if (variantDirectory && !existsSync(path.join(variantDirectory, "main.js"))) {
    throw new Error(`BENCH_VARIANT: ${variantDirectory} has no main.js (a copy of apps/api/dist)`);
  }
  const selectedScenarios = scenarios.filter((scenario) =>
    isSelected(scenario.name, tierOf(scenario.name), selection),
  );
  const selectedSuites = suites.filter((suite) => isSuiteSelected(suite, selection, env));
  if (selectedScenarios.length === 0 && selectedSuites.length === 0) {
    throw new Error(`bench: BENCH_ONLY=${env.BENCH_ONLY} names no row and no suite`);
  }
  process.stderr.write(
    `bench: ${selection.only ? `BENCH_ONLY=${env.BENCH_ONLY}` : selection.full ? "full tier (--full)" : "core tier (--full runs every row and suite)"}: ${selectedScenarios.length} scenarios, suites: ${selectedSuites.map((suite) => suite.name).join(", ") || "none"}\n`,
  );
  const { admin, name: databaseName, url: databaseUrl } = await createDatabase(adminUrl, "agora_bench");
  const postgres =
    (await admin.query<{ server_version: string }>("SHOW server_version")).rows[0]?.server_version ?? null;
  const dataDir = mkdtempSync(path.join(tmpdir(), "agora-bench-"));

  const apiPort = await freePort();
  const referencePort = await freePort();
  const apiEnv = benchApiEnv(
    { databaseUrl: databaseUrl.toString(), dataDir, tokenSecret: BENCH_TOKEN_SECRET, port: apiPort },
    {
      // As the image runs it (infra/Dockerfile's NODE_OPTIONS).
      NODE_OPTIONS: env.BENCH_NODE_OPTIONS ?? "--max-semi-space-size=4",
      DATABASE_POOL_MAX: env.BENCH_POOL_MAX ?? "10",
      LOG_LEVEL: "info",
      WORKER: env.BENCH_WORKER ?? "embedded",
      ...LIMITS_OUT_OF_REACH,
      // So do the socket caps and the pending-upload quota: the typing fan-out holds 1,000 sockets of
      // one member on one process, which the default per-user cap refuses.
      REALTIME_SOCKETS_PER_SESSION: "10000",
      REALTIME_SOCKETS_PER_USER: "10000",
      MEDIA_PENDING_UPLOADS_PER_DAY: "1000000",
      MEDIA_PENDING_UPLOAD_BYTES_PER_DAY: "1000000000000",
      // OUTBOX_* settings of the bench's own environment reach the embedded worker (levers to measure).
      ...Object.fromEntries(Object.entries(env).filter(([key]) => key.startsWith("OUTBOX_"))),
      // So do REALTIME_FANOUT and NATS_* (the chat rows on either fan-out: docs/performance.md).
      ...Object.fromEntries(
        Object.entries(env).filter(([key]) => key === "REALTIME_FANOUT" || key.startsWith("NATS_")),
      ),
    },
  );
  const api = startNode(apiArgs("start.js", apiNodeFlags), apiEnv, { cpu: 0 });
  let reference: ChildProcess | undefined;
  let variant: ChildProcess | undefined;
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const variantPort = variantDirectory ? await freePort() : undefined;
  const variantUrl = `http://127.0.0.1:${variantPort}`;
  const referenceUrl = `http://127.0.0.1:${referencePort}`;

  const rows: ResultRow[] = [];
  const apiRss = watchRss(api.pid);
  const bodiesFile = path.join(dataDir, "bodies.jsonl");
  const reports: string[] = [];
  // API processes a scenario starts beside the first (the realtime fan-out across processes).
  const extraApis: ChildProcess[] = [];
  // The resident memory of each process a row may be served by, by its URL: the API, and those
  // started for a scenario (coalescing off), so a row's MiB are those of the process it loaded.
  const watched = new Map<string, { pid: number | undefined; rss: ReturnType<typeof watchRss> }>();
  watched.set(apiUrl, { pid: api.pid, rss: apiRss });
  try {
    await waitFor200(`${apiUrl}/ready`, api, 60_000);
    if (variantDirectory) {
      // After the API as built has migrated the database: the variant serves it as it is.
      variant = startNode(
        [...apiNodeFlags, path.join(variantDirectory, "main.js")],
        { ...apiEnv, PORT: String(variantPort) },
        { cpu: 0 },
      );
      await waitFor200(`${variantUrl}/ready`, variant, 60_000);
    }
    reference = startNode(
      referenceArgs(referencePort),
      {
        PATH: env.PATH,
        DATABASE_URL: databaseUrl.toString(),
        TOKEN_SECRET: BENCH_TOKEN_SECRET,
        NODE_OPTIONS: env.BENCH_REFERENCE_NODE_OPTIONS,
        ...(referenceDuties ? { REFERENCE_DUTIES: await agoraDutyHeaders(apiUrl) } : {}),
      },
      { cpu: 0 },
    );
    await waitFor200(`${referenceUrl}/health`, reference, 60_000);
    const context = {
      apiUrl,
      referenceUrl,
      databaseUrl: databaseUrl.toString(),
      tokenSecret: BENCH_TOKEN_SECRET,
      async startApi(overrides: Record<string, string> = {}) {
        const port = await freePort();
        const child = startNode(
          apiArgs("main.js", apiNodeFlags),
          { ...apiEnv, PORT: String(port), WORKER: "off", ...overrides },
          { cpu: 0 },
        );
        extraApis.push(child);
        const url = `http://127.0.0.1:${port}`;
        watched.set(url, { pid: child.pid, rss: watchRss(child.pid) });
        await waitFor200(`${url}/health`, child, 60_000);

        return {
          url,
          async stop() {
            const exited = new Promise((resolve) => child.once("exit", resolve));
            child.kill("SIGTERM");
            await exited;
          },
        };
      },
    };
    for (const scenario of selectedScenarios) {
      process.stderr.write(`  ${scenario.name}: preparing…\n`);
      const scenarioStarted = new Date();
      const preparing = performance.now();
      const {
        bodies,
        apiUrl: scenarioApiUrl,
        ...prepared
      } = scenario.prepare ? await scenario.prepare(context) : {};
      if (scenario.prepare) {
        process.stderr.write(
          `  ${scenario.name}: prepared in ${((performance.now() - preparing) / 1000).toFixed(1)} s\n`,
        );
      }
      const agoraPath = prepared.path ?? scenario.request.path;
      const referencePath = scenario.reference === false ? undefined : (scenario.reference ?? agoraPath);
      // The variant measures the rows the API as built serves, not a process of the scenario's own.
      const sideBySideHere = variant !== undefined && scenarioApiUrl === undefined;
      // Single-use bodies: every run gets its own slice, so none is sent twice.
      let slice = 0;
      let nextSlice = 0;
      if (bodies) {
        writeFileSync(bodiesFile, `${bodies.join("\n")}\n`);
        slice = Math.floor(bodies.length / (rounds * scenario.connections.length * (sideBySideHere ? 2 : 1)));
      }
      const runAgora = (base: Record<string, unknown>, server = scenarioApiUrl ?? apiUrl) => {
        const sliceStart = nextSlice * slice;
        nextSlice += 1;

        return load({
          ...base,
          url: `${server}${agoraPath}`,
          ...(bodies ? { bodiesFile, bodiesStart: sliceStart } : {}),
        });
      };
      for (const connections of scenario.connections) {
        const base = { connections, durationSeconds, warmupSeconds, ...scenario.request, ...prepared };
        process.stderr.write(`  ${scenario.name} @${connections}:`);
        const served = watched.get(scenarioApiUrl ?? apiUrl) ?? { pid: api.pid, rss: apiRss };
        const idle = rssMiB(served.pid);
        served.rss.reset();
        // Rounds alternate which server goes first; the median round (by ratio) is reported, so
        // one noisy measurement on a shared machine does not decide the figure.
        const measured: { agora: LoadResult; reference: LoadResult | undefined }[] = [];
        const sideBySideRounds: SideBySide["rounds"] = [];
        for (let round = 0; round < rounds; round += 1) {
          const runReference = () =>
            referencePath === undefined
              ? undefined
              : load({ ...base, url: `${referenceUrl}${referencePath}` });
          const runVariant = () => (sideBySideHere ? runAgora(base, variantUrl) : undefined);
          let pair: { agora: LoadResult; reference: LoadResult | undefined };
          let variantResult: LoadResult | undefined;
          if (round % 2 === 0) {
            const agora = runAgora(base);
            variantResult = runVariant();
            pair = { agora, reference: runReference() };
          } else {
            const reference = runReference();
            variantResult = runVariant();
            pair = { agora: runAgora(base), reference };
          }
          measured.push(pair);
          if (variantResult) {
            sideBySideRounds.push({ built: pair.agora, variant: variantResult });
          }
          process.stderr.write(
            ` ${fmt(pair.agora.requestsPerSecond)}${variantResult ? `|${fmt(variantResult.requestsPerSecond)}` : ""}/${pair.reference ? fmt(pair.reference.requestsPerSecond) : "-"}`,
          );
        }
        const score = (pair: { agora: LoadResult; reference: LoadResult | undefined }) =>
          pair.agora.requestsPerSecond / (pair.reference?.requestsPerSecond ?? 1);
        measured.sort((a, b) => score(a) - score(b));
        const median = measured[Math.floor(measured.length / 2)] ?? measured[0];
        process.stderr.write("\n");
        if (median) {
          const { agora, reference: ref } = median;
          rows.push({
            name: scenario.name,
            tier: tierOf(scenario.name),
            connections,
            agora,
            reference: ref ?? null,
            ratio: ref ? agora.requestsPerSecond / Math.max(ref.requestsPerSecond, 1) : null,
            rss: { idleMiB: idle ?? null, peakMiB: served.rss.peak() ?? null },
            ...(sideBySideRounds.length > 0 ? { sideBySide: sideBySide(sideBySideRounds) } : {}),
          });
        }
      }
      if (scenario.report) {
        reports.push(
          `${scenario.name}: ${await scenario.report(context, { from: scenarioStarted, to: new Date() })}`,
        );
      }
    }
  } finally {
    await Promise.all([...watched.values()].map((served) => served.rss.stop()));
    for (const child of extraApis) {
      child.kill("SIGTERM");
    }
    api.kill("SIGTERM");
    variant?.kill("SIGTERM");
    reference?.kill("SIGTERM");
    await sleep(500);
    if (env.BENCH_KEEP_DATABASE) {
      console.log(`database kept (BENCH_KEEP_DATABASE): ${databaseName}`);
    } else {
      await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`).catch(() => {});
    }
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }

  // The suites, after the scenarios' servers have stopped (each starts what it measures). One that
  // fails is reported as failed (and the run exits 1), the rows and the other suites still written.
  const suiteResults: { name: string; table: string; json: unknown }[] = [];
  for (const suite of selectedSuites) {
    process.stderr.write(`  ${suite.name}: running…\n`);
    try {
      suiteResults.push({ name: suite.name, ...(await suite.run({ repo, adminUrl, apiEnv, rows })) });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`  ${suite.name}: failed: ${message}\n`);
      suiteResults.push({
        name: suite.name,
        table: `${suite.name}: failed: ${message}`,
        json: { failed: message },
      });
      process.exitCode = 1;
    }
  }

  const header = [
    "scenario",
    "conns",
    "req/s",
    "p50 ms",
    "p99 ms",
    "ref req/s",
    "ref p50",
    "ref p99",
    "ratio",
    "non-2xx",
    "ref non-2xx",
    "idle MiB",
    "peak MiB",
  ];
  const lines = rows.map(({ name, connections, agora, reference: ref, ratio, rss }) => {
    const failed = (counts: LoadResult["statusCounts"]) =>
      (counts["4xx"] ?? 0) + (counts["5xx"] ?? 0) + (counts.errors ?? 0) + (counts.timeouts ?? 0);

    return [
      name,
      String(connections),
      fmt(agora.requestsPerSecond),
      fmt(agora.p50, 1),
      fmt(agora.p99, 1),
      ref ? fmt(ref.requestsPerSecond) : "-",
      ref ? fmt(ref.p50, 1) : "-",
      ref ? fmt(ref.p99, 1) : "-",
      ratio === null ? "-" : `${fmt(ratio * 100)}%`,
      String(failed(agora.statusCounts)),
      ref ? String(failed(ref.statusCounts)) : "-",
      fmtMiB(rss.idleMiB ?? undefined),
      fmtMiB(rss.peakMiB ?? undefined),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => (line[i] ?? "").length)));
  const render = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join("  ");
  const cpu = cpus()[0]?.model.trim() ?? "";
  const note = `Node ${process.version}, ${cpu || "unknown CPU"}; ${hasTaskset ? "servers pinned to CPU 0, load generator to CPU 1 (taskset)" : "no taskset: unpinned"}; median of ${rounds} alternating rounds of ${durationSeconds}s (after ${warmupSeconds}s warm-up) per server; ${referenceDuties ? "the reference with Agora's duties (its headers, an access-log line and a histogram sample per request); " : ""}autocannon, pipelining 1, loopback; PostgreSQL ${databaseUrl.host}; idle/peak MiB: the resident memory (VmRSS) of the API process that served the row, before the row and its highest during the row's runs; load average at the end ${loadavg()
    .map((n) => n.toFixed(1))
    .join(" / ")} (1 / 5 / 15 min).`;
  const table = [render(header), render(widths.map((w) => "-".repeat(w))), ...lines.map(render)].join("\n");
  if (rows.length > 0) {
    process.stdout.write(`\n${table}\n\n${reports.map((line) => `${line}\n`).join("")}${note}\n`);
  }
  const sideBySideLines = sideBySideTable(rows);
  if (sideBySideLines) {
    process.stdout.write(
      `\nside by side: A = the API as built (apps/api/dist), B = BENCH_VARIANT (${path.relative(repo, variantDirectory ?? "")}), medians of ${rounds} rounds each; + means A serves more req/s or has the lower p99\n${sideBySideLines}\n`,
    );
  }
  for (const suite of suiteResults) {
    process.stdout.write(`\n${suite.table}\n`);
  }
  const wallSeconds = (performance.now() - began) / 1000;
  const result: BenchResult = {
    startedAt,
    selection: {
      tier: selection.only ? "only" : selection.full ? "full" : "core",
      only: env.BENCH_ONLY ?? null,
    },
    machine: {
      cpu: cpu || "unknown CPU",
      cores: cpus().length,
      node: process.version,
      postgres,
      loadAverage: { start: loadAtStart, end: loadavg() },
      ...git,
      pinned: hasTaskset,
      wallSeconds,
    },
    settings: {
      durationSeconds,
      warmupSeconds,
      rounds,
      referenceDuties,
      ...(variantDirectory ? { variant: path.relative(repo, variantDirectory) } : {}),
    },
    note,
    reports,
    rows,
    suites: Object.fromEntries(suiteResults.map((suite) => [suite.name, suite.json])),
  };
  const written = await writeResult(result, path.join(repo, "bench/results"));
  process.stdout.write(
    `\nwall time ${Math.floor(wallSeconds / 60)} min ${Math.round(wallSeconds % 60)} s; load average now ${loadavg()
      .map((n) => n.toFixed(1))
      .join(
        " / ",
      )}; written: ${path.relative(repo, written.json)} and ${path.relative(repo, written.svg)} (and latest.json, latest.svg)\n`,
  );
};

await main();
