import { z } from "zod";

export const healthSchema = z.object({ status: z.literal("ok") });
export type Health = z.infer<typeof healthSchema>;

export const readinessSchema = z.object({
  status: z.enum(["ready", "not_ready"]),
  checks: z.record(z.string(), z.enum(["ok", "failed", "skipped"])),
});
export type Readiness = z.infer<typeof readinessSchema>;

export const apiInfoSchema = z.object({ name: z.literal("agora"), version: z.string() });
export type ApiInfo = z.infer<typeof apiInfoSchema>;
