import { z } from "zod";
import { pageQuerySchema, timestampSchema } from "./common";
import { momentReportSchema, reportStatusSchema } from "./community";

export const moderationActionSchema = z.enum(["hide_moment", "restore_moment", "suspend_user", "none"]);

export const reportsQuerySchema = pageQuerySchema(20).extend({
  status: reportStatusSchema.optional().meta({ description: "Only reports with this status." }),
});

/** A report as moderators see it: the review so far and the reported moment's state. */
export const moderatedReportSchema = momentReportSchema
  .extend({
    reporter_id: z.string(),
    moment_author_id: z.string(),
    moment_hidden: z.boolean(),
    reviewer_id: z.string().nullable(),
    resolution_note: z.string().nullable(),
    reviewed_at: timestampSchema.nullable(),
    resolved_at: timestampSchema.nullable(),
    updated_at: timestampSchema,
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
