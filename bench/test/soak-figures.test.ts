// The figures `pnpm soak` reads from /metrics and the outbox lag p99 its goal is checked on.
import { describe, expect, it } from "vitest";
import { lagP99, readMetrics } from "../src/soak-figures.ts";

const scrape = (counts: { orders: number[]; messages: number[] }, waiting = [0, 0]) => {
  const bounds = ["0.5", "1", "2.5", "+Inf"];
  const histogram = (kind: string, cumulative: number[]) =>
    bounds.map(
      (le, i) => `agora_outbox_delivery_lag_seconds_bucket{le="${le}",kind="${kind}"} ${cumulative[i]}`,
    );

  return [
    "# HELP process_resident_memory_bytes Resident memory size in bytes.",
    "process_resident_memory_bytes 104857600",
    "nodejs_active_handles_total 531",
    'nodejs_active_handles{type="Socket"} 520',
    "nodejs_eventloop_lag_p99_seconds 0.0125",
    `agora_db_pool_waiting_requests{pool="api"} ${waiting[0]}`,
    `agora_db_pool_waiting_requests{pool="outbox"} ${waiting[1]}`,
    "agora_db_pool_waiting_requests_total 99",
    "agora_outbox_pending_events 7",
    "agora_outbox_oldest_pending_age_seconds 0.4",
    "agora_realtime_open_sockets 500",
    ...histogram("order.created", counts.orders),
    ...histogram("message.sent", counts.messages),
    `agora_outbox_delivery_lag_seconds_count{kind="order.created"} ${counts.orders.at(-1)}`,
  ].join("\n");
};

describe("readMetrics", () => {
  it("reads the gauges, sums a series over its labels only (not a longer name), and the lag buckets by kind and in all", () => {
    const figures = readMetrics(scrape({ orders: [10, 20, 30, 40], messages: [1, 2, 3, 4] }, [3, 2]));
    expect(figures).toMatchObject({
      residentBytes: 104_857_600,
      handles: 531,
      poolWaiting: 5,
      eventLoopP99Ms: 12.5,
      outboxPending: 7,
      outboxOldestSeconds: 0.4,
      openSockets: 500,
    });
    expect([...(figures.lagBuckets.get("order.created") ?? [])]).toEqual([
      [0.5, 10],
      [1, 20],
      [2.5, 30],
      [Number.POSITIVE_INFINITY, 40],
    ]);
    expect(figures.lagBuckets.get("")?.get(Number.POSITIVE_INFINITY)).toBe(44);
  });
});

describe("lagP99", () => {
  const at = (orders: number[], messages: number[]) => readMetrics(scrape({ orders, messages })).lagBuckets;

  it("counts only the deliveries between the two samples", () => {
    // Before: 100 slow deliveries. Between: 200 more, all within 0.5 s.
    const before = at([0, 0, 0, 100], [0, 0, 0, 0]);
    const after = at([200, 200, 200, 300], [0, 0, 0, 0]);
    expect(lagP99(before, after)).toEqual({ deliveries: 200, p99Seconds: 0.5 });
  });

  it("answers the bound of the bucket holding the 99th percentile, by kind or over all kinds", () => {
    const before = at([0, 0, 0, 0], [0, 0, 0, 0]);
    // 1,000 orders: 985 within 0.5 s, 995 within 1 s. 100 messages: 98 within 2.5 s, 2 past it.
    const after = at([985, 995, 1000, 1000], [90, 95, 98, 100]);
    expect(lagP99(before, after, "order.created")).toEqual({ deliveries: 1000, p99Seconds: 1 });
    expect(lagP99(before, after, "message.sent")).toEqual({
      deliveries: 100,
      p99Seconds: Number.POSITIVE_INFINITY,
    });
    // All: 1,100 deliveries, 1,090 within 1 s (99.09%).
    expect(lagP99(before, after)).toEqual({ deliveries: 1100, p99Seconds: 1 });
  });

  it("is 0 over no delivery and NaN without two samples", () => {
    const same = at([5, 5, 5, 5], [0, 0, 0, 0]);
    expect(lagP99(same, same)).toEqual({ deliveries: 0, p99Seconds: 0 });
    expect(lagP99(undefined, same).p99Seconds).toBeNaN();
  });
});
