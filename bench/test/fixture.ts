import type { BenchResult, LoadResult } from "../src/results.ts";

const load = (requestsPerSecond: number, p99: number): LoadResult => ({
  requestsPerSecond,
  totalRequests: requestsPerSecond * 5,
  p50: p99 / 3,
  p99,
  statusCounts: { "2xx": requestsPerSecond * 5 },
});

/** A small result: rows above, between and below the guides, one without a reference, one name twice. */
export const sampleResult = (): BenchResult => ({
  startedAt: "2026-11-26T13:45:07.123Z",
  selection: { tier: "core", only: null },
  machine: {
    cpu: "AMD EPYC 7B13",
    cores: 2,
    node: "v24.11.0",
    postgres: "15.14",
    loadAverage: { start: [3.1, 2.9, 2.5], end: [4.2, 3.3, 2.8] },
    gitCommit: "0123456789abcdef0123456789abcdef01234567",
    gitDirty: false,
    pinned: true,
    wallSeconds: 512,
  },
  settings: { durationSeconds: 5, warmupSeconds: 1, rounds: 3 },
  note: "sample",
  reports: [],
  rows: [
    {
      name: "GET /health",
      tier: "core",
      connections: 50,
      agora: load(9_000, 9.5),
      reference: load(10_000, 8.1),
    },
    {
      name: "GET /listings/{id}",
      tier: "core",
      connections: 50,
      agora: load(2_200, 40),
      reference: load(5_000, 20),
    },
    {
      name: "GET /listings?q (search)",
      tier: "full",
      connections: 1,
      agora: load(1_300, 2),
      reference: load(1_000, 1.5),
    },
    {
      name: "GET /listings?q (search)",
      tier: "full",
      connections: 50,
      agora: load(4_000, 25),
      reference: load(4_400, 22),
    },
    { name: "POST /auth/login", tier: "full", connections: 50, agora: load(120, 800), reference: null },
  ].map((row) => ({
    ...row,
    tier: row.tier as "core" | "full",
    ratio: row.reference ? row.agora.requestsPerSecond / row.reference.requestsPerSecond : null,
    rss: { idleMiB: 80, peakMiB: 120 },
  })),
  suites: {},
});
