// The suites: measurements that are not an autocannon row (each its own table), run after the
// scenario rows, in this order, when selected (tiers.ts: `--full`, or BENCH_ONLY matching the
// name). Adding a suite is one entry here; its `json` lands in the result file under
// `suites[name]` and its `table` is printed after the rows.
import { callgrindTable, callgrindUnavailable, measureCallgrind } from "./callgrind.ts";
import { runDrain } from "./drain.ts";
import { runFanOutCeiling } from "./fanout-ceiling.ts";
import { growthOptionsFromEnv, runGrowth } from "./growth.ts";
import { runMediaBench } from "./media.ts";
import type { ResultRow } from "./results.ts";
import type { Tier } from "./tiers.ts";

export type SuiteContext = {
  repo: string;
  /** A PostgreSQL URL allowed to create databases (each suite makes and drops its own). */
  adminUrl: string;
  /** The environment the bench's API runs with (a suite replaces DATABASE_URL and PORT). */
  apiEnv: Record<string, string | undefined>;
  /** The rows measured in this run (e.g. POST /orders' req/s, which the drain compares with). */
  rows: readonly ResultRow[];
};

export type SuiteResult = { table: string; json: unknown };

export type Suite = {
  name: string;
  tier: Tier;
  /** An environment variable that turns the suite on or off whatever the tier (`on`/`off`). */
  switch?: string;
  run(context: SuiteContext): Promise<SuiteResult>;
};

export const suites: Suite[] = [
  {
    name: "outbox drain",
    tier: "full",
    run: async ({ adminUrl, repo, apiEnv, rows }) => {
      const orders = rows.find((row) => row.name.startsWith("POST /orders"));
      const drain = await runDrain({
        adminUrl,
        repo,
        baseEnv: apiEnv,
        orderRate: orders?.agora.requestsPerSecond,
      });

      return { table: `${drain.table}\n\n${drain.note}`, json: { rows: drain.rows, note: drain.note } };
    },
  },
  {
    name: "media processing",
    tier: "full",
    run: async ({ repo }) => {
      const { table, ...json } = await runMediaBench({ repo });

      return { table, json };
    },
  },
  {
    // The most chat sends/s with and without NOTIFY, on 1 and 2 API processes, each fan-out
    // (docs/performance.md, "The realtime fan-out's ceiling"; also `node bench/src/fanout-ceiling.ts`).
    name: "fan-out ceiling",
    tier: "full",
    run: ({ adminUrl, repo }) => runFanOutCeiling({ adminUrl, repo }),
  },
  {
    // p99 at 1x, 10x and 100x the bench's data (docs/performance.md, "Growth curves"; also
    // `pnpm bench:growth`). The longest suite by far: seeding 10x takes about 25 minutes here.
    name: "growth curves",
    tier: "full",
    switch: "BENCH_GROWTH",
    run: ({ adminUrl }) => runGrowth({ ...growthOptionsFromEnv(), adminUrl }),
  },
  {
    // Instructions per request (callgrind.ts; also `pnpm bench:callgrind`, which CI runs).
    name: "callgrind",
    tier: "full",
    switch: "BENCH_CALLGRIND",
    run: async ({ adminUrl }) => {
      const unavailable = callgrindUnavailable();
      if (unavailable) {
        return { table: `callgrind: skipped: ${unavailable}`, json: { skipped: unavailable } };
      }
      const result = await measureCallgrind({ adminUrl });

      return { table: callgrindTable(result), json: result };
    },
  },
];
