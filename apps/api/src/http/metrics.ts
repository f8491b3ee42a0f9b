import { copiedCounter } from "@agora/process/copied-counter";
import { registerLogMetrics } from "@agora/process/log-metrics";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** A database pool's connections at the moment of a scrape (see `Database.poolStats`). */
export type PoolFigures = { max: number; inUse: number; idle: number; waiting: number };

/**
 * The socket cap an upgrade was refused at: one session's sockets on the conversation, the
 * session's, the user's (429), or the process's (closed with 1013).
 */
export type RealtimeRefusal = "conversation" | "session" | "user" | "process";
const realtimeRefusals: readonly RealtimeRefusal[] = ["conversation", "session", "user", "process"];

/** The listing page cache's lookups since start (served from it or not) and the pages it holds. */
export type ListingCacheFigures = { hits: number; misses: number; pages: number };

/** The realtime fan-out's connection: its mode, whether it is up, and how often it came back. */
export type RealtimeFanOutFigures = { mode: string; connected: boolean; reconnects: number };

/** The outbox's state and the oldest undecided report's age, read from the database at each scrape. */
export type OutboxFigures = {
  pending: number;
  oldestPendingAgeSeconds: number;
  dead: number;
  oldestUndecidedReportAgeSeconds: number;
};

/**
 * A scrape waits at most this long for the outbox figures (the statement itself is bounded a
 * little lower, see deps.ts); past it, the scrape answers without them.
 */
const OUTBOX_FIGURES_WAIT_MS = 1_500;

export type Metrics = {
  registry: Registry;
  httpDuration: Histogram<"method" | "route" | "status">;
  /** Reports the connections of a database pool, labelled `pool="<name>"` (PGlite reports none). */
  watchPool(name: string, figures: () => PoolFigures | undefined): void;
  /** Reports how many realtime sockets this process holds open. */
  watchRealtime(count: () => number): void;
  /** Counts a realtime upgrade refused past a socket cap, by the cap (`RealtimeRefusal`). */
  realtimeRefused(reason: RealtimeRefusal): void;
  /** Reports the realtime fan-out's connection (no series while `figures` says undefined). */
  watchFanOut(figures: () => RealtimeFanOutFigures | undefined): void;
  /** Reads the outbox figures at each scrape (one statement on the database). */
  watchOutbox(read: () => Promise<OutboxFigures>): void;
  /** Reports this process's listing page cache: lookups served and not, and pages held. */
  watchListingCache(figures: () => ListingCacheFigures): void;
  /**
   * The exposition text. It never fails on a dependency: when the database does not answer in
   * time the outbox figures are left out and `agora_outbox_figures_up` is 0, the rest is served.
   */
  render(): Promise<string>;
};

export const createMetrics = (): Metrics => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registerLogMetrics(registry);
  const httpDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request duration in seconds, by method, route template and status.",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });

  const pools = new Map<string, () => PoolFigures | undefined>();
  const poolGauge = (name: string, help: string, pick: (figures: PoolFigures) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["pool"] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const [pool, read] of pools) {
          const figures = read();
          if (figures) {
            this.labels(pool).set(pick(figures));
          }
        }
      },
    });
  poolGauge(
    "agora_db_pool_connections_in_use",
    "Database connections checked out of the pool (or connecting), by pool.",
    (figures) => figures.inUse,
  );
  poolGauge(
    "agora_db_pool_connections_idle",
    "Open database connections idle in the pool, by pool.",
    (f) => f.idle,
  );
  poolGauge(
    "agora_db_pool_waiting_requests",
    "Callers waiting for a database connection (the pool is at its maximum), by pool.",
    (figures) => figures.waiting,
  );
  poolGauge(
    "agora_db_pool_connections_max",
    "The pool's connection limit, by pool.",
    (figures) => figures.max,
  );

  let realtimeCount: () => number = () => 0;
  new Gauge({
    name: "agora_realtime_open_sockets",
    help: "Realtime (WebSocket) connections open in this process.",
    registers: [registry],
    collect() {
      this.set(realtimeCount());
    },
  });

  const refused = new Counter({
    name: "agora_realtime_refused_upgrades_total",
    help: "Realtime upgrades refused past a socket cap, by reason (conversation, session, user: 429; process: closed with 1013).",
    labelNames: ["reason"] as const,
    registers: [registry],
  });
  for (const reason of realtimeRefusals) {
    refused.labels(reason).inc(0);
  }

  let fanOut: (() => RealtimeFanOutFigures | undefined) | undefined;
  new Gauge({
    name: "agora_realtime_fanout_connected",
    help: "1 while this process hears the chat changes other processes commit (its LISTEN session or NATS subscription is up), 0 while it reconnects; by mode (postgres, nats).",
    labelNames: ["mode"] as const,
    registers: [registry],
    collect() {
      this.reset();
      const figures = fanOut?.();
      if (figures) {
        this.labels(figures.mode).set(figures.connected ? 1 : 0);
      }
    },
  });
  copiedCounter(
    registry,
    {
      name: "agora_realtime_fanout_reconnects_total",
      help: "Times the realtime fan-out's connection came back after being lost (each one resyncs every open conversation), by mode.",
      labelNames: ["mode"] as const,
    },
    () => {
      const figures = fanOut?.();

      return figures && [[{ mode: figures.mode }, figures.reconnects]];
    },
  );

  let listingCache: (() => ListingCacheFigures) | undefined;
  copiedCounter(
    registry,
    {
      name: "agora_listing_cache_lookups_total",
      help: "Public listing page lookups in this process's cache, by result (hit: served from it; miss: read from the database).",
      labelNames: ["result"] as const,
    },
    () => {
      // No series while the cache is off.
      const figures = listingCache?.();

      return (
        figures && [
          [{ result: "hit" }, figures.hits],
          [{ result: "miss" }, figures.misses],
        ]
      );
    },
  );
  new Gauge({
    name: "agora_listing_cache_pages",
    help: "Public listing pages held in this process's cache.",
    registers: [registry],
    collect() {
      this.reset();
      const figures = listingCache?.();
      if (figures) {
        this.set(figures.pages);
      }
    },
  });

  const figuresUp = new Gauge({
    name: "agora_outbox_figures_up",
    help: "1 when this scrape read the outbox figures from the database, 0 when it did not answer in time.",
    registers: [registry],
  });
  // Rendered only when this scrape read them: stale figures would look current.
  const outboxRegistry = new Registry();
  const pending = new Gauge({
    name: "agora_outbox_pending_events",
    help: "Outbox events neither delivered nor dead-lettered (due, leased to a worker, or waiting to retry).",
    registers: [outboxRegistry],
  });
  const oldestAge = new Gauge({
    name: "agora_outbox_oldest_pending_age_seconds",
    help: "Seconds since the oldest pending outbox event was written (0 when none is pending).",
    registers: [outboxRegistry],
  });
  const dead = new Gauge({
    name: "agora_outbox_dead_events",
    help: "Dead-lettered outbox events (kept; `pnpm agora outbox retry` re-drives them).",
    registers: [outboxRegistry],
  });
  const oldestReport = new Gauge({
    name: "agora_reports_oldest_undecided_age_seconds",
    help: "Seconds since the oldest report still open or in review was filed (0 when none): moderators act within 24 hours.",
    registers: [outboxRegistry],
  });

  let readOutbox: (() => Promise<OutboxFigures>) | undefined;
  // One read at a time: scrapes arriving while the database is slow share it instead of piling up.
  let inFlight: Promise<OutboxFigures> | undefined;
  const outboxFigures = async (): Promise<OutboxFigures | undefined> => {
    if (!readOutbox) {
      return undefined;
    }
    if (!inFlight) {
      const reading = readOutbox().finally(() => {
        inFlight = undefined;
      });
      reading.catch(() => {});
      inFlight = reading;
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), OUTBOX_FIGURES_WAIT_MS);
    });
    try {
      return await Promise.race([inFlight, late]);
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    registry,
    httpDuration,
    watchPool(name, figures) {
      pools.set(name, figures);
    },
    watchRealtime(count) {
      realtimeCount = count;
    },
    realtimeRefused(reason) {
      refused.labels(reason).inc();
    },
    watchFanOut(figures) {
      fanOut = figures;
    },
    watchOutbox(read) {
      readOutbox = read;
    },
    watchListingCache(figures) {
      listingCache = figures;
    },
    async render() {
      if (!readOutbox) {
        return registry.metrics();
      }
      const figures = await outboxFigures();
      figuresUp.set(figures ? 1 : 0);
      if (!figures) {
        return registry.metrics();
      }
      pending.set(figures.pending);
      oldestAge.set(figures.oldestPendingAgeSeconds);
      dead.set(figures.dead);
      oldestReport.set(figures.oldestUndecidedReportAgeSeconds);

      return `${await registry.metrics()}${await outboxRegistry.metrics()}`;
    },
  };
};
