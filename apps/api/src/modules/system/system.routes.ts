import { systemOperations } from "@agora/contracts/system";
import { AppError } from "@agora/domain/common/app-error";
import { requestLogger } from "../../http/app-env";
import type { Lifecycle } from "../../http/lifecycle";
import type { Metrics } from "../../http/metrics";
import { type Handled, handle } from "../../http/operations";
import { ok } from "../../http/respond";
import { API_VERSION } from "../../version";
import type { FanOutWatch } from "../chat/realtime/fan-out-watch";
import { ReadinessFailure, type ReadinessProbe } from "./readiness";

export type SystemDeps = {
  /** `metricsPort`: when METRICS_PORT serves /metrics, this port answers it 404. */
  config: { readinessChecks: boolean; metricsPort: number | undefined };
  probes: ReadinessProbe[];
  /** Reported by /ready, never a reason to answer 503 (see `fanOutCheck`). */
  realtimeFanOut: Pick<FanOutWatch, "status">;
  metrics: Metrics;
  lifecycle: Lifecycle;
};

const READINESS_TIMEOUT_MS = 2_000;

const withTimeout = async (work: Promise<void>, ms: number): Promise<void> => {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("timed out")), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Runs the probes, a dependent one only once what it requires passed (no "schema" failure for a
 * database that is down: the refusal names the database alone); 503 naming each failing probe.
 */
const assertReady = async (
  probes: readonly ReadinessProbe[],
  warn: (err: unknown, dependency: string) => void,
): Promise<void> => {
  const failing: { path: string; message: string }[] = [];
  const passed = new Set<string>();
  const run = async (probe: ReadinessProbe) => {
    try {
      await withTimeout(probe.check(), READINESS_TIMEOUT_MS);
      passed.add(probe.name);
    } catch (err) {
      warn(err, probe.name);
      failing.push({
        path: probe.name,
        message: err instanceof ReadinessFailure ? err.message : "unavailable",
      });
    }
  };
  await Promise.all(probes.filter((probe) => !probe.requires).map(run));
  await Promise.all(probes.filter((probe) => probe.requires && passed.has(probe.requires)).map(run));
  if (failing.length > 0) {
    failing.sort((a, b) => a.path.localeCompare(b.path));
    throw new AppError(
      "service_unavailable",
      `Not ready: ${failing
        .map((failure) =>
          failure.message === "unavailable"
            ? `${failure.path} unavailable`
            : `${failure.path} (${failure.message})`,
        )
        .join("; ")}.`,
      { details: failing },
    );
  }
};

/**
 * A lost fan-out degrades the process, it does not make it unready: everything but live chat pushes
 * is served without it, sockets resync when it is back, and a broker blip seen by every replica at
 * once would otherwise take them all out of the balancer together. It is reported, and alerted on
 * from /metrics (docs/operations.md).
 */
const fanOutCheck = (checksEnabled: boolean, connected: boolean) => {
  if (!checksEnabled) {
    return "skipped" as const;
  }

  return connected ? ("ok" as const) : ("degraded" as const);
};

export const systemRoutes = ({
  config,
  probes,
  realtimeFanOut,
  metrics,
  lifecycle,
}: SystemDeps): Handled[] => [
  handle(systemOperations.systemHealth, (c) => ok(c, { status: "ok" as const })),
  handle(systemOperations.systemReady, async (c) => {
    if (lifecycle.draining) {
      throw new AppError("service_unavailable", "Not ready: shutting down.", {
        details: [{ path: "process", message: "shutting down" }],
      });
    }
    if (config.readinessChecks) {
      await assertReady(probes, (err, dependency) =>
        requestLogger(c).warn({ err, dependency }, "readiness check failed"),
      );
    }
    const outcome = config.readinessChecks ? ("ok" as const) : ("skipped" as const);
    const fanOut = realtimeFanOut.status();

    return ok(c, {
      status: "ready" as const,
      checks: {
        ...Object.fromEntries(probes.map((probe) => [probe.name, outcome])),
        realtime_fanout: fanOutCheck(config.readinessChecks, fanOut.connected),
      },
      realtime_fanout: fanOut,
    });
  }),
  handle(systemOperations.systemMetrics, async (c) => {
    if (config.metricsPort !== undefined) {
      throw new AppError("not_found", "No such route.");
    }
    const text = await metrics.render();

    return c.text(text, 200, { "Content-Type": metrics.registry.contentType });
  }),
  handle(systemOperations.systemInfo, (c) => ok(c, { name: "agora" as const, version: API_VERSION })),
];
