// What `pnpm soak` reads from the API's /metrics (Prometheus text) at each sample, and the outbox
// delivery lag's p99 between two samples (soak.ts).

/** agora_outbox_delivery_lag_seconds: cumulative count by bucket bound, by kind ("" = all kinds). */
export type LagBuckets = Map<string, Map<number, number>>;

export type MetricFigures = {
  residentBytes: number;
  handles: number;
  /** agora_db_pool_waiting_requests over every pool (the API's and the embedded worker's). */
  poolWaiting: number;
  eventLoopP99Ms: number;
  outboxPending: number;
  outboxOldestSeconds: number;
  openSockets: number;
  lagBuckets: LagBuckets;
};

export const readMetrics = (text: string): MetricFigures => {
  const sum = (name: string) => {
    let total = 0;
    for (const match of text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, "gm"))) {
      total += Number(match[1]);
    }

    return total;
  };
  const lagBuckets: LagBuckets = new Map();
  for (const match of text.matchAll(/^agora_outbox_delivery_lag_seconds_bucket\{([^}]*)\} (\S+)$/gm)) {
    const le = /le="([^"]+)"/.exec(match[1] ?? "")?.[1] ?? "+Inf";
    const kind = /kind="([^"]+)"/.exec(match[1] ?? "")?.[1] ?? "?";
    const bound = le === "+Inf" ? Number.POSITIVE_INFINITY : Number(le);
    for (const key of ["", kind]) {
      const counts = lagBuckets.get(key) ?? new Map<number, number>();
      lagBuckets.set(key, counts);
      counts.set(bound, (counts.get(bound) ?? 0) + Number(match[2]));
    }
  }

  return {
    residentBytes: sum("process_resident_memory_bytes"),
    handles: sum("nodejs_active_handles_total"),
    poolWaiting: sum("agora_db_pool_waiting_requests"),
    eventLoopP99Ms: sum("nodejs_eventloop_lag_p99_seconds") * 1000,
    outboxPending: sum("agora_outbox_pending_events"),
    outboxOldestSeconds: sum("agora_outbox_oldest_pending_age_seconds"),
    openSockets: sum("agora_realtime_open_sockets"),
    lagBuckets,
  };
};

/**
 * The p99 of the deliveries recorded between two samples of the histogram, as the upper bound of
 * the bucket it falls in (Infinity past the last bound; 0 when nothing was delivered).
 */
export const lagP99 = (from: LagBuckets | undefined, to: LagBuckets | undefined, kind = "") => {
  if (!from || !to) {
    return { deliveries: 0, p99Seconds: Number.NaN };
  }
  const before = from.get(kind) ?? new Map<number, number>();
  const after = to.get(kind) ?? new Map<number, number>();
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const total = (after.get(Number.POSITIVE_INFINITY) ?? 0) - (before.get(Number.POSITIVE_INFINITY) ?? 0);
  if (total <= 0) {
    return { deliveries: 0, p99Seconds: 0 };
  }
  for (const bound of bounds) {
    const within = (after.get(bound) ?? 0) - (before.get(bound) ?? 0);
    if (within >= total * 0.99) {
      return { deliveries: total, p99Seconds: bound };
    }
  }

  return { deliveries: total, p99Seconds: Number.POSITIVE_INFINITY };
};
