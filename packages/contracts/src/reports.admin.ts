import { z } from "zod";
import { pageQuerySchema, timestampSchema } from "./common";
import { reportReasonSchema, reportStatusSchema } from "./community";
import { pageMetaSchema } from "./envelope";
import { defineOperations } from "./operation";
import { reportCategorySchema, reportTargetTypeSchema } from "./reports";

export const decisionActionSchema = z.enum(["hide", "delete", "warn", "suspend", "dismiss", "approve"]);

export const targetReportsQuerySchema = pageQuerySchema(20).extend({
  status: reportStatusSchema
    .optional()
    .meta({ description: "Only reports with this status (not with `group_by`)." }),
  target_type: reportTargetTypeSchema.optional(),
  category: reportCategorySchema.optional(),
  group_by: z
    .enum(["target"])
    .optional()
    .meta({
      description:
        "`target`: one entry per target with undecided reports (open or reviewing), oldest first by its " +
        "oldest one, with `open_reports`, `categories` and the target now.",
    }),
});

/** A report of any target, as moderators see it. */
export const targetReportSchema = z
  .object({
    id: z.string(),
    target_type: reportTargetTypeSchema,
    target_id: z.string(),
    target_owner_id: z.string().nullable(),
    reporter_id: z.string().nullable().meta({ description: "Null for a filter's report." }),
    source: z.enum(["member", "filter"]),
    category: reportCategorySchema,
    reason: reportReasonSchema,
    note: z.string().nullable(),
    snapshot: z
      .record(z.string(), z.any())
      .nullable()
      .meta({ description: "What was reported, as it was when reported (body, media ids, names, owner)." }),
    status: reportStatusSchema,
    decision: z.string().nullable(),
    reviewer_id: z.string().nullable(),
    resolution_note: z.string().nullable(),
    reviewed_at: timestampSchema.nullable(),
    resolved_at: timestampSchema.nullable(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: "TargetReport" });
export type TargetReportDto = z.infer<typeof targetReportSchema>;

const targetStateSchema = z
  .record(z.string(), z.any())
  .nullable()
  .meta({ description: "The target as it is now (its fields, `owner`, `owner_id`); null when it is gone." });

export const reportedTargetSchema = z
  .object({
    target_type: reportTargetTypeSchema,
    target_id: z.string(),
    target_owner_id: z.string().nullable(),
    open_reports: z.number().int().min(1),
    categories: z
      .record(z.string(), z.number().int())
      .meta({ description: "Undecided reports per category." }),
    oldest_report_at: timestampSchema,
    deleted: z.boolean(),
    current: targetStateSchema,
  })
  .meta({ id: "ReportedTarget" });
export type ReportedTargetDto = z.infer<typeof reportedTargetSchema>;

/** A page of the queue: reports, or (group_by=target) targets. */
const queueItemSchema = z.union([targetReportSchema, reportedTargetSchema]);

export const targetParamsSchema = z.object({
  target_type: reportTargetTypeSchema,
  target_id: z.string().meta({ description: "The target's id." }),
});

const contextMessageSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  sender_id: z.string(),
  body: z.string(),
  message_type: z.string(),
  created_at: timestampSchema,
});

export const reportTargetViewSchema = z
  .object({
    target_type: reportTargetTypeSchema,
    target_id: z.string(),
    deleted: z.boolean(),
    current: targetStateSchema,
    reports: z.array(targetReportSchema),
    edits: z
      .array(
        z.object({
          id: z.string(),
          author_id: z.string(),
          body: z.string().nullable(),
          edited_at: timestampSchema,
        }),
      )
      .meta({ description: "A moment's or comment's earlier texts, oldest first." }),
    messages: z.array(contextMessageSchema).nullable().meta({
      description: "A message: it and at most 5 before and 5 after it in its conversation; null otherwise.",
    }),
  })
  .meta({ id: "ReportTargetView" });
export type ReportTargetViewDto = z.infer<typeof reportTargetViewSchema>;

export const decisionRequestSchema = z
  .object({
    action: decisionActionSchema,
    note: z.string().trim().max(2000).optional().meta({ description: "Kept with each closed report." }),
  })
  .meta({ id: "DecisionRequest", example: { action: "delete", note: "Threats, reported three times." } });

export const decisionSchema = z
  .object({
    target_type: reportTargetTypeSchema,
    target_id: z.string(),
    action: decisionActionSchema,
    closed: z
      .array(targetReportSchema)
      .meta({ description: "The reports the decision closed, oldest first." }),
  })
  .meta({ id: "Decision" });
export type DecisionDto = z.infer<typeof decisionSchema>;

const tags = ["Administration"];

/** The queue of every target's reports and the decisions on targets. */
export const reportsAdminOperations = defineOperations({
  adminTargetReportsList: {
    method: "GET",
    path: "/api/v1/admin/reports",
    auth: "bearer",
    tags,
    summary: "The queue of reports on every target",
    query: targetReportsQuerySchema,
    responses: {
      200: {
        description: "A page of reports or of targets.",
        data: z.array(queueItemSchema),
        meta: pageMetaSchema,
      },
    },
    errors: ["unauthorized", "forbidden", "validation_failed"],
  },
  adminReportTargetView: {
    method: "GET",
    path: "/api/v1/admin/reports/targets/{target_type}/{target_id}",
    auth: "bearer",
    tags,
    summary: "A reported target, its reports and context",
    params: targetParamsSchema,
    responses: { 200: { description: "The target and its reports.", data: reportTargetViewSchema } },
    errors: ["unauthorized", "forbidden", "not_found", "validation_failed"],
  },
  adminReportTargetDecide: {
    method: "POST",
    path: "/api/v1/admin/reports/targets/{target_type}/{target_id}/decision",
    auth: "bearer",
    tags,
    summary: "Decide a reported target",
    params: targetParamsSchema,
    body: decisionRequestSchema,
    responses: { 200: { description: "The decision and the reports it closed.", data: decisionSchema } },
    errors: [
      "unauthorized",
      "forbidden",
      "not_found",
      "validation_failed",
      "invalid_transition",
      "last_admin",
    ],
  },
});
