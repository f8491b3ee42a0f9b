// Which rows and suites a run measures. `pnpm bench` runs the core tier: the rows the performance
// goals are stated on, within ten minutes on a 2-core machine. `pnpm bench --full` runs every row
// and every suite (bench/src/suites.ts). BENCH_ONLY (a regex over names) picks from all of them,
// whatever their tier. This file is the one place that says which rows are core.

export type Tier = "core" | "full";

/**
 * The core rows, by scenario name (scenarios.ts, varied.ts, chat.ts, …), in no particular order
 * (rows run in the scenarios' own order). A test checks that each names a scenario.
 */
export const coreRows: readonly string[] = [
  "GET /health",
  "GET /api/v1",
  "POST /orders (member)",
  "GET /notifications",
  "GET /listings/{id}",
  "GET /listings/{id} (spread), coalescing on",
  "GET /community/feed",
  "GET /listings (browse, varied), coalescing and cache off",
  "GET /listings?q (search, Zipf), coalescing and cache off",
  "POST /chat/…/messages",
  "POST /community/moments",
  "POST /community/moments, 1,000 filter rules",
];

/** A scenario's tier: core when `coreRows` names it, else full. */
export const tierOf = (name: string): Tier => (coreRows.includes(name) ? "core" : "full");

export type Selection = {
  /** --full: every row and suite. */
  full: boolean;
  /** BENCH_ONLY: only the rows and suites whose name matches, of either tier. */
  only: RegExp | undefined;
};

/** The selection a run was started with: `--full` (or BENCH_FULL=1) and BENCH_ONLY. */
export const selectionFrom = (argv: readonly string[], env: NodeJS.ProcessEnv): Selection => {
  const unknown = argv.filter((arg) => arg.startsWith("-") && arg !== "--full");
  if (unknown.length > 0) {
    throw new Error(`bench: unknown option ${unknown.join(" ")} (the only one is --full)`);
  }

  return {
    full: argv.includes("--full") || env.BENCH_FULL === "1",
    only: env.BENCH_ONLY ? new RegExp(env.BENCH_ONLY, "i") : undefined,
  };
};

/** Whether a row or suite of this name and tier runs under `selection`. */
export const isSelected = (name: string, tier: Tier, selection: Selection): boolean =>
  selection.only ? selection.only.test(name) : selection.full || tier === "core";

/**
 * Whether a suite runs: its `switch` variable, when set to `on` or `off`, decides (BENCH_CALLGRIND
 * for Callgrind); otherwise its name and tier, as for rows.
 */
export const isSuiteSelected = (
  suite: { name: string; tier: Tier; switch?: string },
  selection: Selection,
  env: NodeJS.ProcessEnv,
): boolean => {
  const value = suite.switch === undefined ? undefined : env[suite.switch];
  if (value === "off" || value === "on") {
    return value === "on";
  }

  return isSelected(suite.name, suite.tier, selection);
};
