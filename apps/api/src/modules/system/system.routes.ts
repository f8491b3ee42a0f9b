import { successEnvelope } from "@agora/contracts/envelope";
import { apiInfoSchema, healthSchema, readinessSchema } from "@agora/contracts/system";
import { AppError } from "@agora/domain/shared/app-error";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { requestLogger } from "../../http/app-env";
import type { Metrics } from "../../http/metrics";
import { createRouter, errors, json } from "../../http/openapi";
import { ok } from "../../http/respond";

export const API_VERSION = "0.1.0";

export type ReadinessProbe = { name: string; check: () => Promise<void> };

export type SystemDeps = {
  readinessChecks: boolean;
  probes: ReadinessProbe[];
  metrics: Metrics;
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
    "default in staging and production). 503 `service_unavailable` names the failing dependency.",
  responses: {
    200: json(successEnvelope(readinessSchema), "Ready; `checks` says what was checked."),
    ...errors(503),
  },
});

const metricsRoute = createRoute({
  method: "get",
  path: "/metrics",
  tags: ["System"],
  summary: "Process metrics (Prometheus text format)",
  description: "Public by design; restrict it at the proxy or network layer.",
  responses: {
    200: { description: "Prometheus exposition text.", content: { "text/plain": { schema: z.string() } } },
  },
});

const apiInfo = createRoute({
  method: "get",
  path: "/api/v1",
  tags: ["System"],
  summary: "API name and version",
  responses: { 200: json(successEnvelope(apiInfoSchema), "Name and version.") },
});

export const createSystemRoutes = ({ readinessChecks, probes, metrics }: SystemDeps) =>
  createRouter()
    .openapi(health, (c) => ok(c, { status: "ok" as const }))
    .openapi(ready, async (c) => {
      if (!readinessChecks) {
        const checks = Object.fromEntries(probes.map((probe) => [probe.name, "skipped" as const]));

        return ok(c, { status: "ready" as const, checks });
      }
      const failing: string[] = [];
      await Promise.all(
        probes.map(async (probe) => {
          try {
            await withTimeout(probe.check(), READINESS_TIMEOUT_MS);
          } catch (err) {
            requestLogger(c).warn({ err, dependency: probe.name }, "readiness check failed");
            failing.push(probe.name);
          }
        }),
      );
      if (failing.length > 0) {
        throw new AppError("service_unavailable", `Not ready: ${failing.join(", ")} unavailable.`, {
          details: failing.map((name) => ({ path: name, message: "unavailable" })),
        });
      }
      const checks = Object.fromEntries(probes.map((probe) => [probe.name, "ok" as const]));

      return ok(c, { status: "ready" as const, checks });
    })
    .openapi(metricsRoute, async (c) => {
      const text = await metrics.registry.metrics();

      return c.text(text, 200, { "Content-Type": metrics.registry.contentType });
    })
    .openapi(apiInfo, (c) => ok(c, { name: "agora" as const, version: API_VERSION }));
