import { z } from "zod";
import { defineOperations } from "./operation";

export const healthSchema = z.object({ status: z.literal("ok") });
export type Health = z.infer<typeof healthSchema>;

const realtimeFanOutStatusSchema = z
  .object({
    mode: z.enum(["postgres", "nats"]).meta({
      description:
        "`REALTIME_FANOUT`: PostgreSQL LISTEN (PGlite's in-process notifications when embedded), or NATS.",
    }),
    connected: z.boolean().meta({
      description:
        "Whether this process hears the chat changes other processes commit (its LISTEN session, or its " +
        "NATS subscription, is up). False while it reconnects, and before the realtime channel started.",
    }),
  })
  .meta({ id: "RealtimeFanOutStatus" });

export const readinessSchema = z.object({
  status: z.enum(["ready", "not_ready"]),
  checks: z.record(z.string(), z.enum(["ok", "degraded", "failed", "skipped"])),
  realtime_fanout: realtimeFanOutStatusSchema,
});
export type Readiness = z.infer<typeof readinessSchema>;

export const apiInfoSchema = z.object({ name: z.literal("agora"), version: z.string() });
export type ApiInfo = z.infer<typeof apiInfoSchema>;

const tags = ["System"];

/** Liveness, readiness, metrics and the API's name: outside `/api/v1`, except the last. */
export const systemOperations = defineOperations({
  systemHealth: {
    method: "GET",
    path: "/health",
    auth: "public",
    tags,
    summary: "Liveness",
    responses: { 200: { description: "The process is alive.", data: healthSchema } },
  },
  systemReady: {
    method: "GET",
    path: "/ready",
    auth: "public",
    tags,
    summary: "Readiness",
    responses: { 200: { description: "Ready; `checks` says what was checked.", data: readinessSchema } },
    errors: ["service_unavailable"],
  },
  systemMetrics: {
    method: "GET",
    path: "/metrics",
    auth: "public",
    tags,
    summary: "Process metrics (Prometheus text format)",
    responses: {
      200: { description: "Prometheus exposition text.", mediaType: "text/plain", text: z.string() },
    },
    errors: ["not_found"],
  },
  systemInfo: {
    method: "GET",
    path: "/api/v1",
    auth: "public",
    tags,
    summary: "API name and version",
    responses: { 200: { description: "Name and version.", data: apiInfoSchema } },
  },
});
