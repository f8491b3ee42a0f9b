import { z } from "zod";
import { timestampSchema } from "./common";
import { reportReasonSchema, reportStatusSchema } from "./community";
import { defineOperations } from "./operation";

export const reportTargetTypeSchema = z
  .enum(["moment", "comment", "message", "user", "dating_profile", "listing", "meeting"])
  .meta({ description: "What is reported. A dating profile's id is its user's id." });

export const reportCategorySchema = z.enum([
  "spam",
  "harassment",
  "hate",
  "sexual",
  "violence",
  "self_harm",
  "illegal",
  "impersonation",
  "scam",
  "other",
]);

export const reportRequestSchema = z
  .object({
    target_type: reportTargetTypeSchema,
    target_id: z.uuid(),
    category: reportCategorySchema,
    note: z.string().trim().min(1).max(2000).optional(),
  })
  .meta({
    id: "ReportRequest",
    example: {
      target_type: "message",
      target_id: "0193e0a4-7b1c-7d2e-9f3a-1b2c3d4e5f60",
      category: "harassment",
      note: "Keeps insulting me after I asked them to stop.",
    },
  });

/** A report as its reporter sees it. */
export const reportSchema = z
  .object({
    id: z.string(),
    target_type: reportTargetTypeSchema,
    target_id: z.string(),
    category: reportCategorySchema,
    reason: reportReasonSchema.meta({ description: "The category in the moment route's terms." }),
    note: z.string().nullable(),
    status: reportStatusSchema,
    created_at: timestampSchema,
  })
  .meta({ id: "Report" });
export type ReportDto = z.infer<typeof reportSchema>;

/** Reporting anything a member can see. */
export const reportsOperations = defineOperations({
  reportsCreate: {
    method: "POST",
    path: "/api/v1/reports",
    auth: "bearer",
    writeLimit: "reports",
    tags: ["Community"],
    summary: "Report anything to the moderators",
    idempotencyKey: "optional",
    body: reportRequestSchema,
    responses: {
      201: { description: "Reported.", data: reportSchema },
      200: { description: "Already reported: the caller's open report on this target.", data: reportSchema },
    },
    errors: ["unauthorized", "forbidden", "not_found", "validation_failed"],
  },
});
