import { describe, expect, it } from "vitest";
import { scenarios } from "../src/scenarios.ts";
import { suites } from "../src/suites.ts";
import { coreRows, isSelected, isSuiteSelected, selectionFrom, tierOf } from "../src/tiers.ts";

const names = scenarios.map((scenario) => scenario.name);
const run = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  const selection = selectionFrom(argv, env);

  return {
    rows: names.filter((name) => isSelected(name, tierOf(name), selection)),
    suites: suites.filter((suite) => isSuiteSelected(suite, selection, env)).map((suite) => suite.name),
  };
};

describe("bench tiers", () => {
  it("names only scenarios that exist, each once", () => {
    expect(coreRows.filter((name) => !names.includes(name))).toEqual([]);
    expect(new Set(coreRows).size).toBe(coreRows.length);
    expect(new Set(names).size).toBe(names.length);
  });

  it("puts the performance goals' rows in the core tier", () => {
    const core = run([]).rows;
    for (const goal of [
      "GET /health",
      "GET /api/v1",
      "GET /listings/{id}",
      "GET /listings/{id} (spread), coalescing on",
      "GET /notifications",
      "GET /community/feed",
      "POST /orders (member)",
      "POST /chat/…/messages",
      "GET /listings (browse, varied), coalescing and cache off",
      "GET /listings?q (search, Zipf), coalescing and cache off",
    ]) {
      expect(core).toContain(goal);
    }
  });

  it("runs the core rows in the scenarios' order and no suite by default", () => {
    const { rows, suites: ran } = run([]);
    expect(rows).toEqual(names.filter((name) => coreRows.includes(name)));
    expect(rows).not.toContain("GET /admin/orders?q&status (1M orders)");
    expect(rows).not.toContain("realtime typing fan-out across processes");
    expect(ran).toEqual([]);
  });

  it("runs every row and suite with --full (or BENCH_FULL=1)", () => {
    const all = { rows: names, suites: suites.map((suite) => suite.name) };
    expect(run(["--full"])).toEqual(all);
    expect(run([], { BENCH_FULL: "1" })).toEqual(all);
    expect(all.suites).toEqual([
      "outbox drain",
      "media processing",
      "fan-out ceiling",
      "growth curves",
      "callgrind",
    ]);
  });

  it("lets BENCH_ONLY pick over all rows and suites, whatever their tier", () => {
    expect(run([], { BENCH_ONLY: "statements" }).rows).toEqual([
      "GET /listings/{id}, named statements",
      "POST /orders (member), named statements",
      "GET /listings/{id}, unnamed statements",
      "POST /orders (member), unnamed statements",
    ]);
    expect(run([], { BENCH_ONLY: "outbox drain" })).toEqual({ rows: [], suites: ["outbox drain"] });
    expect(run([], { BENCH_ONLY: "^GET /health$" })).toEqual({ rows: ["GET /health"], suites: [] });
    // BENCH_ONLY decides even with --full.
    expect(run(["--full"], { BENCH_ONLY: "feed" }).rows).toEqual(["GET /community/feed"]);
  });

  it("turns Callgrind on or off with BENCH_CALLGRIND, whatever the tier", () => {
    expect(run([], { BENCH_CALLGRIND: "on" }).suites).toEqual(["callgrind"]);
    expect(run(["--full"], { BENCH_CALLGRIND: "off" }).suites).toEqual([
      "outbox drain",
      "media processing",
      "fan-out ceiling",
      "growth curves",
    ]);
    expect(run(["--full"], { BENCH_GROWTH: "off" }).suites).not.toContain("growth curves");
    expect(run([], { BENCH_ONLY: "feed", BENCH_CALLGRIND: "on" }).suites).toEqual(["callgrind"]);
  });

  it("refuses an option it does not know", () => {
    expect(() => selectionFrom(["--ful"], {})).toThrow(/unknown option --ful/);
  });
});
