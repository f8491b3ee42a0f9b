// What an outbox worker reports about itself, as Prometheus series: the API process registers
// them when it runs the worker embedded, the worker process on its own health port. The backlog
// as the database holds it (pending, oldest age, dead letters) is the API's /metrics, read at
// each scrape; these are what this process did.
import type { OutboxOutcome } from "@agora/domain/outbox/outbox.deps";
import { Counter, Gauge, Histogram, type Registry } from "prom-client";

export type OutboxMetrics = {
  /** Counts one outcome (pass it as, or beside, the loop's `observe`). */
  observe(outcome: OutboxOutcome): void;
  /**
   * Seconds since the claim loop that turned least recently last turned (a claim, failed or not),
   * at `now`; 0 before the loops started (`start`). The worker's liveness reads it.
   */
  sinceLastTurn(now?: number): number;
  /** The loops start now: each is expected to turn from here on. */
  start(loops: number, now?: number): void;
};

export const createOutboxMetrics = (registry: Registry): OutboxMetrics => {
  const deliveries = new Counter({
    name: "agora_outbox_deliveries_total",
    help: "Outbox events this process delivered and recorded as processed, by kind.",
    labelNames: ["kind"] as const,
    registers: [registry],
  });
  const failures = new Counter({
    name: "agora_outbox_delivery_failures_total",
    help: "Outbox deliveries of this process that failed, by kind and outcome (retry: backs off; dead: dead-lettered; unrecorded: the outcome could not be stored, the lease brings it back).",
    labelNames: ["kind", "outcome"] as const,
    registers: [registry],
  });
  const claimFailures = new Counter({
    name: "agora_outbox_claim_failures_total",
    help: "Outbox claims of this process that failed (the database did not answer); the loop retries.",
    registers: [registry],
  });
  const claimDuration = new Histogram({
    name: "agora_outbox_claim_duration_seconds",
    help: "How long one outbox claim took (one statement: mark the last batch, claim the next).",
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const claimed = new Counter({
    name: "agora_outbox_claimed_events_total",
    help: "Outbox events this process claimed (a retried event is counted at each claim).",
    registers: [registry],
  });
  const lag = new Histogram({
    name: "agora_outbox_delivery_lag_seconds",
    help: "From an outbox event's commit to this process recording it delivered, by kind.",
    labelNames: ["kind"] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800],
    registers: [registry],
  });
  let lastTurns: number[] = [];
  new Gauge({
    name: "agora_outbox_loop_last_turn_age_seconds",
    help: "Seconds since the least recently turning outbox claim loop of this process last claimed (0 before it started).",
    registers: [registry],
    collect() {
      this.set(sinceLastTurn());
    },
  });
  const sinceLastTurn = (now = Date.now()) =>
    lastTurns.length === 0 ? 0 : Math.max(0, (now - Math.min(...lastTurns)) / 1000);
  const turned = (loop: number) => {
    if (loop < lastTurns.length) {
      lastTurns[loop] = Date.now();
    }
  };

  return {
    observe(outcome) {
      switch (outcome.type) {
        case "claimed":
          turned(outcome.loop);
          claimDuration.observe(outcome.seconds);
          claimed.inc(outcome.events);
          break;
        case "claim_failed":
          turned(outcome.loop);
          claimFailures.inc();
          break;
        case "processed":
          deliveries.inc({ kind: outcome.event.kind });
          lag.observe(
            { kind: outcome.event.kind },
            Math.max(0, (Date.now() - outcome.event.createdAt.getTime()) / 1000),
          );
          break;
        case "retry":
          failures.inc({ kind: outcome.event.kind, outcome: "retry" });
          break;
        case "dead":
          failures.inc({ kind: outcome.event.kind, outcome: "dead" });
          break;
        case "record_failed":
          failures.inc({ kind: outcome.event.kind, outcome: "unrecorded" });
          break;
        default: {
          const unknown: never = outcome;
          throw new Error(`unknown outbox outcome ${JSON.stringify(unknown)}`);
        }
      }
    },
    sinceLastTurn,
    start(loops, now = Date.now()) {
      lastTurns = Array.from({ length: Math.max(1, loops) }, () => now);
    },
  };
};
