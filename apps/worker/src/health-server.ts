// The worker's health and metrics port (WORKER_HEALTH_PORT): what Kubernetes probes and Prometheus
// scrapes. `/health` is liveness: it fails once a claim loop has not turned (claimed, or failed to)
// for WORKER_LIVENESS_SECONDS, so a worker wedged on a dead connection is restarted. `/ready` is
// 200 while the loops run. `/metrics` is this process's series (docs/operations.md).
import type { OutboxOutcome } from "@agora/domain/outbox/outbox.deps";
import type { Config } from "@agora/process/config";
import { registerLogMetrics } from "@agora/process/log-metrics";
import { createOutboxMetrics } from "@agora/process/outbox-metrics";
import { startProbeServer } from "@agora/process/probe-server";
import type { Logger } from "pino";
import { collectDefaultMetrics, Registry } from "prom-client";

export type WorkerHealthServer = {
  /** Where it listens (WORKER_HEALTH_PORT; 0 picks a free port). */
  readonly port: number;
  /** Counts what the outbox loop reports (pass it beside the log's `observe`). */
  observe(outcome: OutboxOutcome): void;
  /** The loops run from now on: `/ready` is 200 and liveness watches each loop's turns. */
  running(loops: number): void;
  /** Stopping: `/ready` answers 503 (liveness holds while the last batch finishes). */
  stopping(): void;
  close(): Promise<void>;
};

export const startWorkerHealthServer = async (
  config: Pick<Config, "host" | "workerHealthPort" | "workerLivenessSeconds">,
  logger: Logger,
): Promise<WorkerHealthServer> => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registerLogMetrics(registry);
  const outbox = createOutboxMetrics(registry);
  let state: "starting" | "running" | "stopping" = "starting";
  let wedged = false;
  const server = await startProbeServer(
    { host: config.host, port: config.workerHealthPort },
    {
      "/health": () => {
        const seconds = state === "running" ? outbox.sinceLastTurn() : 0;
        const failing = seconds > config.workerLivenessSeconds;
        if (failing !== wedged) {
          wedged = failing;
          if (failing) {
            logger.error(
              { seconds_since_turn: Math.round(seconds), liveness_seconds: config.workerLivenessSeconds },
              "outbox loop has not turned: liveness fails (the orchestrator restarts this worker)",
            );
          } else {
            logger.warn("outbox loop turns again: liveness passes");
          }
        }

        return failing
          ? { status: 503, body: `outbox loop has not turned for ${Math.round(seconds)} s\n` }
          : { status: 200, body: "ok\n" };
      },
      "/ready": () =>
        state === "running" ? { status: 200, body: "ready\n" } : { status: 503, body: `${state}\n` },
      "/metrics": async () => ({
        status: 200,
        body: await registry.metrics(),
        contentType: registry.contentType,
      }),
    },
  );

  return {
    port: server.port,
    observe: (outcome) => outbox.observe(outcome),
    running(loops) {
      outbox.start(loops);
      state = "running";
    },
    stopping() {
      state = "stopping";
    },
    close: () => server.close(),
  };
};
