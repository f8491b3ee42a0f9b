// A bench run's result: the JSON written to bench/results/<timestamp>.json (and latest.json) and
// the chart drawn from it beside it (<timestamp>.svg, latest.svg): each row's req/s as a share of
// the raw reference's (bars, guide lines at 80% and 100%) and the p99 latency of both. The chart
// is a Vega-Lite spec rendered to SVG by Vega in Node (no browser, no canvas).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as vega from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import type { Tier } from "./tiers.ts";

export type LoadResult = {
  requestsPerSecond: number;
  totalRequests: number;
  p50: number;
  p99: number;
  statusCounts: Partial<Record<"2xx" | "3xx" | "4xx" | "5xx" | "errors" | "timeouts", number>>;
};

/** One measured row: a scenario at one connection count, the median of its rounds. */
export type ResultRow = {
  name: string;
  tier: Tier;
  connections: number;
  agora: LoadResult;
  reference: LoadResult | null;
  /** Agora's req/s ÷ the reference's; null without a reference. */
  ratio: number | null;
  /** The serving API process's resident memory (MiB): before the row's load, and its peak during it. */
  rss: { idleMiB: number | null; peakMiB: number | null };
  /** With BENCH_VARIANT: the API as built (A) and the variant build (B), side by side on this row. */
  sideBySide?: SideBySide;
};

/** One row of a side-by-side run: each build's median req/s and p99 over the rounds, and each round. */
export type SideBySide = {
  built: { requestsPerSecond: number; p99: number };
  variant: { requestsPerSecond: number; p99: number };
  /** A's median req/s over B's, less one (+0.05: the build as built serves 5% more). */
  requestsPerSecondGain: number;
  /** B's median p99 over A's, less one (+0.05: the build as built's p99 is 5% lower). */
  p99Gain: number;
  /**
   * The median of each round's A req/s over its B req/s, less one: the rounds' pairs ran back to
   * back, so this reads through the machine's drift; far from `requestsPerSecondGain`, the medians
   * were moved by noise.
   */
  pairedGain: number;
  /** In how many rounds A served more req/s than B. */
  wins: number;
  rounds: { built: LoadResult; variant: LoadResult }[];
};

export type Machine = {
  cpu: string;
  cores: number;
  node: string;
  postgres: string | null;
  /** 1, 5 and 15 minute load averages, at the start of the run and at its end. */
  loadAverage: { start: number[]; end: number[] };
  gitCommit: string | null;
  /** Whether the working tree had uncommitted changes. */
  gitDirty: boolean;
  /** Servers on CPU 0, the load generator on CPU 1 (taskset). */
  pinned: boolean;
  wallSeconds: number;
};

export type BenchResult = {
  startedAt: string;
  /** core (`pnpm bench`), full (`--full`) or only (BENCH_ONLY, given in `only`). */
  selection: { tier: Tier | "only"; only: string | null };
  machine: Machine;
  /** `referenceDuties`: the reference also sent Agora's headers, logged and measured (BENCH_REFERENCE_DUTIES=1). */
  settings: {
    durationSeconds: number;
    warmupSeconds: number;
    rounds: number;
    referenceDuties?: boolean;
    /** BENCH_VARIANT: the other build measured side by side with the API as built. */
    variant?: string;
  };
  note: string;
  /** Lines some rows add after their runs (e.g. the outbox lag over POST /orders). */
  reports: string[];
  rows: ResultRow[];
  /** Each suite's figures by its name (suites.ts). */
  suites: Record<string, unknown>;
};

/** The row's label on the chart: its name, with the connection count where a name has several. */
const labels = (rows: readonly ResultRow[]) =>
  rows.map((row) =>
    rows.filter((other) => other.name === row.name).length > 1 ? `${row.name} @${row.connections}` : row.name,
  );

const GUIDES = [0.8, 1];

export const chartSpec = (result: BenchResult): TopLevelSpec => {
  const label = labels(result.rows);
  const values = result.rows.map((row, i) => ({
    label: label[i],
    ratio: row.ratio,
    agoraP99: row.agora.p99,
    referenceP99: row.reference?.p99 ?? null,
  }));
  const maxRatio = Math.max(1.2, ...values.map((row) => (row.ratio ?? 0) + 0.15));
  const { machine } = result;
  // Both panels the same height, so their rows line up.
  const height = 26 * Math.max(1, values.length);
  const y = {
    field: "label",
    type: "nominal",
    sort: null,
    title: null,
    // An explicit domain keeps the rows in run order in both panels.
    scale: { domain: label },
    // No limit: without a canvas Vega estimates text wider than it draws, and would cut names short.
    axis: { labelLimit: 0 },
  } as const;

  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: `Agora beside the raw reference${result.settings.referenceDuties ? " with Agora's duties" : ""}: ${result.selection.tier === "only" ? `BENCH_ONLY=${result.selection.only}` : `${result.selection.tier} tier`}, ${result.startedAt.slice(0, 16).replace("T", " ")} UTC${machine.gitCommit ? `, ${machine.gitCommit.slice(0, 10)}${machine.gitDirty ? " (dirty)" : ""}` : ""}`,
      subtitle: `${machine.cpu}, ${machine.cores} cores; Node ${machine.node}; PostgreSQL ${machine.postgres ?? "?"}; load average ${machine.loadAverage.end.map((n) => n.toFixed(1)).join(" / ")} at the end; ${result.settings.rounds} rounds of ${result.settings.durationSeconds} s per server`,
      anchor: "start",
    },
    data: { values },
    config: { view: { stroke: null }, font: "sans-serif" },
    resolve: { scale: { y: "independent" } },
    hconcat: [
      {
        name: "ratio",
        title: "req/s, share of the reference's",
        width: 320,
        height,
        layer: [
          {
            // Rows without a reference (ratio null) get no bar: Vega-Lite leaves out invalid values.
            name: "ratio_bars",
            mark: { type: "bar", height: 16 },
            encoding: {
              y,
              x: {
                field: "ratio",
                type: "quantitative",
                title: null,
                scale: { domain: [0, maxRatio] },
                axis: { format: "%" },
              },
              color: {
                condition: [
                  { test: "datum.ratio >= 1", value: "#2e7d32" },
                  { test: "datum.ratio >= 0.8", value: "#f9a825" },
                ],
                value: "#c62828",
              },
            },
          },
          {
            name: "ratio_labels",
            mark: { type: "text", align: "left", dx: 4, fontSize: 11 },
            encoding: {
              y,
              x: { field: "ratio", type: "quantitative" },
              text: { field: "ratio", format: ".0%" },
            },
          },
          {
            name: "no_reference",
            mark: { type: "text", align: "left", dx: 4, fontSize: 11, color: "#777" },
            encoding: {
              y,
              x: { datum: 0, type: "quantitative" },
              text: { condition: { test: "datum.ratio == null", value: "no reference" }, value: "" },
            },
          },
          {
            name: "guides",
            data: { values: GUIDES.map((guide) => ({ guide })) },
            mark: { type: "rule", strokeDash: [4, 3], color: "#333" },
            encoding: { x: { field: "guide", type: "quantitative" } },
          },
        ],
      },
      {
        name: "p99",
        title: "p99 latency (ms)",
        width: 320,
        height,
        transform: [
          { fold: ["agoraP99", "referenceP99"], as: ["series", "p99"] },
          { filter: "datum.p99 != null" },
          { calculate: "datum.series === 'agoraP99' ? 'Agora' : 'reference'", as: "side" },
        ],
        layer: [
          {
            name: "p99_bars",
            mark: { type: "bar", height: 10 },
            encoding: {
              y: { ...y, axis: null },
              yOffset: { field: "side", type: "nominal" },
              // Symmetric log: a 2 ms row and a 2 s row both stay readable.
              x: {
                field: "p99",
                type: "quantitative",
                title: null,
                scale: { type: "symlog" },
                axis: { values: [0, 1, 3, 10, 30, 100, 300, 1_000, 3_000, 10_000] },
              },
              color: {
                field: "side",
                type: "nominal",
                title: "p99",
                scale: { domain: ["Agora", "reference"], range: ["#1565c0", "#9e9e9e"] },
                legend: { orient: "bottom" },
              },
            },
          },
          {
            name: "p99_labels",
            mark: { type: "text", align: "left", dx: 3, fontSize: 9 },
            encoding: {
              y: { ...y, axis: null },
              yOffset: { field: "side", type: "nominal" },
              x: { field: "p99", type: "quantitative", scale: { type: "symlog" } },
              text: { field: "p99", format: ".1f" },
            },
          },
        ],
      },
    ],
  } as TopLevelSpec;
};

/** The chart of a result, as an SVG document. */
export const renderChart = async (result: BenchResult): Promise<string> => {
  // Errors only: the layers' y domains come from one explicit list (chartSpec), so Vega-Lite's
  // warning that it would sort their union does not apply.
  const { spec } = compile(chartSpec(result), { logger: vega.logger(vega.Error) });
  const view = new vega.View(vega.parse(spec), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
};

/** `2026-11-26T13:45:07.123Z` → `2026-11-26T13-45-07Z` (a file name on every system). */
export const fileStamp = (iso: string) => `${iso.slice(0, 19).replaceAll(":", "-")}Z`;

/**
 * Writes `<stamp>.json` and `<stamp>.svg` into `dir`, and the same as latest.json and latest.svg.
 * Answers the two paths written under the stamp.
 */
export const writeResult = async (result: BenchResult, dir: string) => {
  mkdirSync(dir, { recursive: true });
  const json = `${JSON.stringify(result, null, 2)}\n`;
  const svg = await renderChart(result);
  const stamp = fileStamp(result.startedAt);
  const written = { json: path.join(dir, `${stamp}.json`), svg: path.join(dir, `${stamp}.svg`) };
  writeFileSync(written.json, json);
  writeFileSync(written.svg, svg);
  writeFileSync(path.join(dir, "latest.json"), json);
  writeFileSync(path.join(dir, "latest.svg"), svg);

  return written;
};
