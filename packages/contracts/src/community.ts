import { z } from "zod";
import { idParamSchema, pageQuerySchema, timestampSchema } from "./common";
import { pageMetaSchema } from "./envelope";
import { mediaOperations } from "./media";
import { defineOperations } from "./operation";

const { mediaGet: readMedia } = mediaOperations;

/** The answer of a block or an unblock: whom, and whether the caller now blocks them. */
export const blockStateSchema = z
  .object({
    user_id: z.string(),
    blocked: z.boolean().meta({ description: "true after a block, false after an unblock." }),
  })
  .meta({ id: "BlockState" });
export type BlockStateDto = z.infer<typeof blockStateSchema>;

/** Who wrote a moment or a comment. */
export const userSummarySchema = z
  .object({ id: z.string(), username: z.string(), display_name: z.string() })
  .meta({ id: "UserSummary" });

export const momentCountersSchema = z
  .object({
    likes: z.number().int(),
    views: z.number().int().meta({ description: "Distinct users who viewed it." }),
    comments: z.number().int(),
  })
  .meta({ id: "MomentCounters", description: "Calculated by the server." });
export type MomentCountersDto = z.infer<typeof momentCountersSchema>;

export const momentSchema = z
  .object({
    id: z.string(),
    author: userSummarySchema,
    body: z.string().nullable(),
    visibility: z.literal("public"),
    media_asset_ids: z.array(z.string()).meta({
      description:
        `In the order given; read each with \`${readMedia.method} ${readMedia.path}\`: its \`status\` is ` +
        "`processing`, without a URL, until the server has checked its bytes, then `ready` with its URLs. An " +
        "asset rejected after the moment took it is listed to the author only.",
    }),
    counters: momentCountersSchema,
    liked_by_me: z.boolean(),
    hidden: z
      .boolean()
      .meta({ description: "Hidden by moderation: only its author still sees it (and sees this as true)." }),
    created_at: timestampSchema,
    edited_at: timestampSchema
      .nullable()
      .meta({ description: "Its author's last edit; null: never edited." }),
  })
  .meta({ id: "Moment" });
export type MomentDto = z.infer<typeof momentSchema>;

export const createMomentRequestSchema = z
  .object({
    body: z.string().max(2000).optional().meta({ description: "Up to 2000 characters." }),
    visibility: z.literal("public").default("public").meta({ description: "Only `public`." }),
    media_asset_ids: z
      .array(z.string().min(1))
      .max(5)
      .default([])
      .meta({
        description:
          "Up to 5 of your own media assets uploaded for `moment`, in display order, right after their upload " +
          "(the moment is published at once; each asset reads `processing` until it is ready; one already " +
          "`rejected` is 422); each is attached to this moment only and becomes public.",
      }),
  })
  .meta({
    example: {
      body: "Fresh bread from the market this morning.",
      visibility: "public",
      media_asset_ids: ["01935c2f-0c32-7e44-8f50-6b7c8d9eafb0"],
    },
  });
export type CreateMomentRequest = z.infer<typeof createMomentRequestSchema>;

export const cursorQuerySchema = z.object({
  before: z
    .string()
    .min(1)
    .optional()
    .meta({ description: "The id of the last item of the previous page (`meta.next_before`)." }),
});

export const cursorMetaSchema = z.object({
  limit: z.number().int(),
  next_before: z
    .string()
    .nullable()
    .meta({ description: "Pass as `before` for the next (older) page; null on the last page." }),
});

/** The comments list: `limit` 1-100 (default 50; anything else is 422) and the `before` cursor. */
export const commentsQuerySchema = pageQuerySchema(50).pick({ limit: true }).extend(cursorQuerySchema.shape);

export const commentSchema = z
  .object({
    id: z.string(),
    moment_id: z.string(),
    author: userSummarySchema,
    body: z.string(),
    created_at: timestampSchema,
    edited_at: timestampSchema
      .nullable()
      .meta({ description: "Its author's last edit; null: never edited." }),
  })
  .meta({ id: "Comment" });
export type CommentDto = z.infer<typeof commentSchema>;

export const createCommentRequestSchema = z
  .object({
    body: z.string().trim().min(1).max(2000).meta({ description: "1 to 2000 characters (trimmed)." }),
  })
  .meta({ example: { body: "Looks great!" } });

export const editMomentRequestSchema = z
  .object({
    body: z
      .string()
      .max(2000)
      .meta({
        description:
          "The new text, up to 2000 characters. Blank (empty or whitespace only) removes the text, allowed " +
          "only on a moment with media.",
      }),
  })
  .meta({ example: { body: "Fresh bread from the market this morning (sold out by nine)." } });

export const editCommentRequestSchema = createCommentRequestSchema.meta({
  example: { body: "Looks great, again!" },
});

/** The answer of a deletion by its author. */
export const deletedSchema = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .meta({ id: "Deleted", example: { id: "01935c2f-0c32-7e44-8f50-6b7c8d9eafb0", deleted: true } });
export type DeletedDto = z.infer<typeof deletedSchema>;

/** The answer of a mute or an unmute: whom, and whether the caller now mutes them. */
export const muteStateSchema = z
  .object({
    user_id: z.string(),
    muted: z.boolean().meta({ description: "true after a mute, false after an unmute." }),
  })
  .meta({ id: "MuteState" });
export type MuteStateDto = z.infer<typeof muteStateSchema>;

export const muteSchema = z
  .object({ user: userSummarySchema, muted_at: timestampSchema })
  .meta({ id: "Mute" });
export type MuteDto = z.infer<typeof muteSchema>;

export const mutesQuerySchema = pageQuerySchema(50);

export const reportReasonSchema = z.enum(["spam", "abuse", "illegal", "other"]);
export const reportStatusSchema = z.enum(["open", "reviewing", "resolved", "dismissed"]);

export const reportMomentRequestSchema = z
  .object({
    reason: reportReasonSchema,
    note: z.string().trim().min(1).max(2000).optional(),
  })
  .meta({ example: { reason: "spam", note: "Links to a phishing site." } });

export const momentReportSchema = z
  .object({
    id: z.string(),
    moment_id: z.string(),
    reason: reportReasonSchema,
    note: z.string().nullable(),
    status: reportStatusSchema,
    created_at: timestampSchema,
  })
  .meta({ id: "MomentReport" });
export type MomentReportDto = z.infer<typeof momentReportSchema>;

const tags = ["Community"];

/** What every operation on one moment answers when the caller may not see it. */
const momentErrors = ["unauthorized", "forbidden", "not_found"] as const;

/** Moments, their likes, views, comments and reports, and blocks between users. */
export const communityOperations = defineOperations({
  communityFeed: {
    method: "GET",
    path: "/api/v1/community/feed",
    auth: "bearer",
    tags,
    summary: "The caller's feed",
    query: cursorQuerySchema,
    responses: {
      200: { description: "A page of moments.", data: z.array(momentSchema), meta: cursorMetaSchema },
    },
    errors: ["unauthorized", "validation_failed"],
  },
  momentsCreate: {
    method: "POST",
    path: "/api/v1/community/moments",
    auth: "bearer",
    writeLimit: "moments",
    tags,
    summary: "Publish a moment",
    idempotencyKey: "optional",
    body: createMomentRequestSchema,
    responses: { 201: { description: "Published.", data: momentSchema } },
    errors: ["unauthorized", "validation_failed", "storage_unavailable", "content_blocked"],
  },
  momentsLike: {
    method: "POST",
    path: "/api/v1/community/moments/{id}/like",
    auth: "bearer",
    writeLimit: "likes",
    tags,
    summary: "Like a moment",
    params: idParamSchema,
    responses: { 200: { description: "Liked; the moment's counters.", data: momentCountersSchema } },
    errors: momentErrors,
  },
  momentsView: {
    method: "POST",
    path: "/api/v1/community/moments/{id}/view",
    auth: "bearer",
    tags,
    summary: "Record a view of a moment",
    params: idParamSchema,
    responses: { 200: { description: "Viewed; the moment's counters.", data: momentCountersSchema } },
    errors: momentErrors,
  },
  momentsCounters: {
    method: "GET",
    path: "/api/v1/community/moments/{id}/counters",
    auth: "bearer",
    tags,
    summary: "A moment's counters",
    params: idParamSchema,
    responses: { 200: { description: "The counters.", data: momentCountersSchema } },
    errors: momentErrors,
  },
  momentCommentsList: {
    method: "GET",
    path: "/api/v1/community/moments/{id}/comments",
    auth: "bearer",
    tags,
    summary: "A moment's comments",
    params: idParamSchema,
    query: commentsQuerySchema,
    responses: {
      200: { description: "A page of comments.", data: z.array(commentSchema), meta: cursorMetaSchema },
    },
    errors: [...momentErrors, "validation_failed"],
  },
  momentCommentsCreate: {
    method: "POST",
    path: "/api/v1/community/moments/{id}/comments",
    auth: "bearer",
    writeLimit: "comments",
    tags,
    summary: "Comment on a moment",
    idempotencyKey: "optional",
    params: idParamSchema,
    body: createCommentRequestSchema,
    responses: { 201: { description: "Commented.", data: commentSchema } },
    errors: [...momentErrors, "validation_failed", "content_blocked"],
  },
  momentsReport: {
    method: "POST",
    path: "/api/v1/community/moments/{id}/report",
    auth: "bearer",
    writeLimit: "reports",
    tags,
    summary: "Report a moment to the moderators",
    idempotencyKey: "optional",
    params: idParamSchema,
    body: reportMomentRequestSchema,
    responses: {
      201: { description: "Reported.", data: momentReportSchema },
      200: { description: "Already reported: the caller's open report.", data: momentReportSchema },
    },
    errors: [...momentErrors, "validation_failed"],
  },
  usersBlock: {
    method: "POST",
    path: "/api/v1/community/users/{id}/block",
    auth: "bearer",
    tags,
    summary: "Block a user",
    params: idParamSchema,
    responses: { 200: { description: "Blocked.", data: blockStateSchema } },
    errors: ["unauthorized", "not_found", "validation_failed"],
  },
  usersUnblock: {
    method: "DELETE",
    path: "/api/v1/community/users/{id}/block",
    auth: "bearer",
    tags,
    summary: "Unblock a user",
    params: idParamSchema,
    responses: { 200: { description: "Not blocked.", data: blockStateSchema } },
    errors: ["unauthorized", "not_found", "validation_failed"],
  },
  momentsEdit: {
    method: "PATCH",
    path: "/api/v1/community/moments/{id}",
    auth: "bearer",
    writeLimit: "content_changes",
    tags,
    summary: "Edit your moment",
    params: idParamSchema,
    body: editMomentRequestSchema,
    responses: { 200: { description: "Edited; the moment.", data: momentSchema } },
    errors: [...momentErrors, "validation_failed", "content_blocked"],
  },
  momentsDelete: {
    method: "DELETE",
    path: "/api/v1/community/moments/{id}",
    auth: "bearer",
    writeLimit: "content_changes",
    tags,
    summary: "Delete your moment",
    params: idParamSchema,
    responses: { 200: { description: "Deleted.", data: deletedSchema } },
    errors: momentErrors,
  },
  momentsUnlike: {
    method: "DELETE",
    path: "/api/v1/community/moments/{id}/like",
    auth: "bearer",
    writeLimit: "content_changes",
    tags,
    summary: "Take your like of a moment back",
    params: idParamSchema,
    responses: { 200: { description: "Not liked; the moment's counters.", data: momentCountersSchema } },
    errors: momentErrors,
  },
  commentsEdit: {
    method: "PATCH",
    path: "/api/v1/community/comments/{id}",
    auth: "bearer",
    writeLimit: "content_changes",
    tags,
    summary: "Edit your comment",
    params: idParamSchema,
    body: editCommentRequestSchema,
    responses: { 200: { description: "Edited; the comment.", data: commentSchema } },
    errors: [...momentErrors, "validation_failed", "content_blocked"],
  },
  commentsDelete: {
    method: "DELETE",
    path: "/api/v1/community/comments/{id}",
    auth: "bearer",
    writeLimit: "content_changes",
    tags,
    summary: "Delete a comment (yours, or under your moment)",
    params: idParamSchema,
    responses: { 200: { description: "Deleted.", data: deletedSchema } },
    errors: momentErrors,
  },
  usersMute: {
    method: "POST",
    path: "/api/v1/community/users/{id}/mute",
    auth: "bearer",
    writeLimit: "mutes",
    tags,
    summary: "Mute a user",
    params: idParamSchema,
    responses: { 200: { description: "Muted.", data: muteStateSchema } },
    errors: ["unauthorized", "not_found", "validation_failed"],
  },
  usersUnmute: {
    method: "DELETE",
    path: "/api/v1/community/users/{id}/mute",
    auth: "bearer",
    writeLimit: "mutes",
    tags,
    summary: "Unmute a user",
    params: idParamSchema,
    responses: { 200: { description: "Not muted.", data: muteStateSchema } },
    errors: ["unauthorized", "not_found", "validation_failed"],
  },
  mutesList: {
    method: "GET",
    path: "/api/v1/community/mutes",
    auth: "bearer",
    tags,
    summary: "The users you mute",
    query: mutesQuerySchema,
    responses: {
      200: { description: "A page of mutes, newest first.", data: z.array(muteSchema), meta: pageMetaSchema },
    },
    errors: ["unauthorized", "validation_failed"],
  },
});
