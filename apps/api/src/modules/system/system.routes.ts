import { successEnvelope } from "@agora/contracts/envelope";
import { apiInfoSchema, healthSchema, readinessSchema } from "@agora/contracts/system";
import { AppError } from "@agora/domain/shared/app-error";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { requestLogger } from "../../http/app-env";
import type { Lifecycle } from "../../http/lifecycle";
import type { Metrics } from "../../http/metrics";
import { createRouter, errors, json } from "../../http/openapi";
import { ok } from "../../http/respond";

export const API_VERSION = "0.1.0";

/**
 * One dependency `/ready` checks. `check` resolves when it is usable and throws otherwise; a
 * ReadinessFailure says what is wrong in words fit for the response, anything else reads as
 * "unavailable". A probe that `requires` another runs only once that one passed.
 */
export type ReadinessProbe = { name: string; check: () => Promise<void>; requires?: string };

/** A probe's refusal whose message may be shown (what is wrong, never how the query failed). */
export class ReadinessFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReadinessFailure";
  }
}

/**
 * Wraps a check whose good answer stays good (the schema only moves forward): once it passed, it
 * is not asked again, so a probe every few seconds costs nothing; until then it is asked each time.
 */
export const passOnce = (check: () => Promise<void>): (() => Promise<void>) => {
  let passed = false;

  return async () => {
    if (passed) {
      return;
    }
    await check();
    passed = true;
  };
};

export type SystemDeps = {
  readinessChecks: boolean;
  /** False when METRICS_PORT serves /metrics: this port then answers it 404. */
  metricsOnThisPort: boolean;
  probes: ReadinessProbe[];
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

const health = createRoute({
  method: "get",
  path: "/health",
  tags: ["System"],
  summary: "Liveness",
  description: "200 while the process runs.",
  responses: { 200: json(successEnvelope(healthSchema), "The process is alive.") },
});

const ready = createRoute({
  method: "get",
  path: "/ready",
  tags: ["System"],
  summary: "Readiness",
  description:
    "200 when dependencies answer, or when readiness checks are disabled (`READINESS_CHECKS`, enabled by " +
    "default in staging and production). The checks: `database` (a round trip) and `schema` (every migration " +
    "this build carries is applied; once it has passed it is not asked again). 503 `service_unavailable` " +
    "names each failing check in `error.details` (`path` = the check, `message` = what is wrong). From SIGTERM " +
    "on, whatever the setting, it answers 503 with `path` `process` (`shutting down`) while the process still " +
    "serves, so a balancer moves traffic away before it stops accepting.",
  responses: {
    200: json(successEnvelope(readinessSchema), "Ready; `checks` says what was checked."),
    ...errors("service_unavailable"),
  },
});

const metricsRoute = createRoute({
  method: "get",
  path: "/metrics",
  tags: ["System"],
  summary: "Process metrics (Prometheus text format)",
  description:
    "Public by design; restrict it at the proxy or network layer. Besides the process metrics and " +
    "`http_request_duration_seconds`: database pool connections in use, idle, waiting and max by pool; open " +
    "realtime sockets; and, read from the database in one bounded statement per scrape, the outbox backlog, " +
    "the age of its oldest pending event and its dead letters. When the database does not answer in time the " +
    "scrape still answers 200, without the outbox figures and with `agora_outbox_figures_up 0`. A deployment " +
    "that serves metrics on a port of their own (`METRICS_PORT`) answers 404 `not_found` here, so a balancer " +
    "routing every path cannot publish them.",
  responses: {
    200: { description: "Prometheus exposition text.", content: { "text/plain": { schema: z.string() } } },
    ...errors("not_found"),
  },
});

const apiInfo = createRoute({
  method: "get",
  path: "/api/v1",
  tags: ["System"],
  summary: "API name and version",
  responses: { 200: json(successEnvelope(apiInfoSchema), "Name and version.") },
});

export const createSystemRoutes = ({
  readinessChecks,
  metricsOnThisPort,
  probes,
  metrics,
  lifecycle,
}: SystemDeps) =>
  createRouter()
    .openapi(health, (c) => ok(c, { status: "ok" as const }))
    .openapi(ready, async (c) => {
      if (lifecycle.draining) {
        throw new AppError("service_unavailable", "Not ready: shutting down.", {
          details: [{ path: "process", message: "shutting down" }],
        });
      }
      if (!readinessChecks) {
        const checks = Object.fromEntries(probes.map((probe) => [probe.name, "skipped" as const]));

        return ok(c, { status: "ready" as const, checks });
      }
      const failing: { path: string; message: string }[] = [];
      const passed = new Set<string>();
      const run = async (probe: ReadinessProbe) => {
        try {
          await withTimeout(probe.check(), READINESS_TIMEOUT_MS);
          passed.add(probe.name);
        } catch (err) {
          requestLogger(c).warn({ err, dependency: probe.name }, "readiness check failed");
          failing.push({
            path: probe.name,
            message: err instanceof ReadinessFailure ? err.message : "unavailable",
          });
        }
      };
      await Promise.all(probes.filter((probe) => !probe.requires).map(run));
      // A dependent check runs only when what it needs answered (no "schema" failure for a database
      // that is down: the response names the database alone).
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
      const checks = Object.fromEntries(probes.map((probe) => [probe.name, "ok" as const]));

      return ok(c, { status: "ready" as const, checks });
    })
    .openapi(metricsRoute, async (c) => {
      if (!metricsOnThisPort) {
        throw new AppError("not_found", "No such route.");
      }
      const text = await metrics.render();

      return c.text(text, 200, { "Content-Type": metrics.registry.contentType });
    })
    .openapi(apiInfo, (c) => ok(c, { name: "agora" as const, version: API_VERSION }));
