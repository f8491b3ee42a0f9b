import { z } from "zod";
import { idParamSchema, pageQuerySchema, timestampSchema } from "./common";
import { momentReportSchema, reportStatusSchema } from "./community";
import { pageMetaSchema } from "./envelope";
import { defineOperations } from "./operation";

export const moderationActionSchema = z.enum(["hide_moment", "restore_moment", "suspend_user", "none"]);

export const reportsQuerySchema = pageQuerySchema(20).extend({
  status: reportStatusSchema.optional().meta({ description: "Only reports with this status." }),
  group_by: z
    .enum(["moment"])
    .optional()
    .meta({
      description:
        "`moment`: one entry per reported moment, its oldest undecided report (open or reviewing, or of " +
        "`status` when given) with `moment_open_reports`, oldest first.",
    }),
});

/** A report as moderators see it: the review so far and the reported moment's state. */
export const moderatedReportSchema = momentReportSchema
  .extend({
    reporter_id: z.string(),
    moment_author_id: z.string(),
    moment_hidden: z.boolean(),
    moment_deleted: z.boolean().meta({ description: "The moment was deleted; its reports stay." }),
    reviewer_id: z.string().nullable(),
    resolution_note: z.string().nullable(),
    reviewed_at: timestampSchema.nullable(),
    resolved_at: timestampSchema.nullable(),
    updated_at: timestampSchema,
    moment_open_reports: z.number().int().min(1).optional().meta({
      description: "With `group_by=moment`: how many reports of the moment the entry stands for.",
    }),
  })
  .meta({ id: "ModeratedReport" });
export type ModeratedReportDto = z.infer<typeof moderatedReportSchema>;

export const moderateRequestSchema = z
  .object({
    action: moderationActionSchema,
    note: z.string().trim().max(2000).optional().meta({ description: "Kept with the resolution." }),
  })
  .meta({ id: "ModerateRequest", example: { action: "hide_moment", note: "Spam link, reported twice." } });

export const reportStatusRequestSchema = z
  .object({ status: reportStatusSchema })
  .meta({ id: "ReportStatusRequest", example: { status: "reviewing" } });

const tags = ["Administration"];

/** What deciding or moving a report can answer. */
const decisionErrors = [
  "unauthorized",
  "forbidden",
  "not_found",
  "validation_failed",
  "invalid_transition",
] as const;

/** The moderators' queue and decisions. */
export const communityAdminOperations = defineOperations({
  adminReportsList: {
    method: "GET",
    path: "/api/v1/admin/community/reports",
    auth: "bearer",
    tags,
    summary: "The moderation queue",
    query: reportsQuerySchema,
    responses: {
      200: { description: "A page of reports.", data: z.array(moderatedReportSchema), meta: pageMetaSchema },
    },
    errors: ["unauthorized", "forbidden", "validation_failed"],
  },
  adminReportsModerate: {
    method: "POST",
    path: "/api/v1/admin/community/reports/{id}/moderate",
    auth: "bearer",
    tags,
    summary: "Decide a report",
    params: idParamSchema,
    body: moderateRequestSchema,
    responses: { 200: { description: "The closed report.", data: moderatedReportSchema } },
    errors: [...decisionErrors, "last_admin"],
  },
  adminReportsStatusUpdate: {
    method: "POST",
    path: "/api/v1/admin/community/reports/{id}/status",
    auth: "bearer",
    tags,
    summary: "Move a report",
    params: idParamSchema,
    body: reportStatusRequestSchema,
    responses: { 200: { description: "The report.", data: moderatedReportSchema } },
    errors: decisionErrors,
  },
});
