import { z } from "zod";

/** Every stable error code a client may switch on (the served OpenAPI document lists them). */
export const errorCodes = [
  "validation_failed",
  "invalid_pagination",
  "unauthorized",
  "invalid_credentials",
  "invalid_code",
  "invalid_refresh_token",
  "invalid_token",
  "forbidden",
  "not_found",
  "method_not_allowed",
  "unsupported_media_type",
  "upgrade_required",
  "username_taken",
  "email_taken",
  "idempotency_conflict",
  "idempotency_in_progress",
  "order_conflict",
  "payment_conflict",
  "last_admin",
  "invalid_transition",
  "item_unavailable",
  "plan_unavailable",
  "meeting_ended",
  "email_not_verified",
  "account_suspended",
  "rate_limited",
  "email_unavailable",
  "video_unavailable",
  "storage_unavailable",
  "service_unavailable",
  "payload_too_large",
  "internal_error",
  "content_blocked",
  "conflict",
] as const;

export const errorCodeSchema = z.enum(errorCodes);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

export const fieldIssueSchema = z.object({
  path: z.string().meta({ description: "Dotted path of the offending field (`body.email`, `query.limit`)." }),
  message: z.string(),
});
export type FieldIssue = z.infer<typeof fieldIssueSchema>;

export const errorBodySchema = z.object({
  code: errorCodeSchema,
  message: z.string(),
  details: z
    .array(fieldIssueSchema)
    .optional()
    .meta({ description: "Field problems (validation_failed; the refused field for content_blocked)." }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
