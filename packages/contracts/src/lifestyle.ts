import { z } from "zod";
import { dateTimeInputSchema, idParamSchema, pageQuerySchema, timestampSchema } from "./common";
import { pageMetaSchema } from "./envelope";
import { mediaAssetIdsSchema, mediaItemSchema } from "./media";
import { defineOperations } from "./operation";

export const datingProfileRequestSchema = z
  .object({
    visible: z.boolean().meta({ description: "Whether other members see the profile in browse." }),
    bio: z.string().max(1000).default("").meta({ description: "Up to 1000 characters; trimmed." }),
    interests: z.array(z.string().trim().min(1).max(40)).max(20).default([]).meta({
      description: "Up to 20 interests of 1-40 characters; duplicates (case-insensitive) are dropped.",
    }),
    birth_year: z
      .number()
      .int()
      .min(1900)
      .max(2100)
      .optional()
      .meta({ description: "Optional; it must make the member at least 18 this year (422 otherwise)." }),
    media_asset_ids: mediaAssetIdsSchema(6, "dating_photo")
      .optional()
      .meta({
        description:
          "The profile's photos: up to 6 of the caller's own asset ids uploaded for `dating_photo`, processed, " +
          "in order. The list replaces the photos (photos dropped are deleted later by the orphan purge); " +
          "absent, the photos stay as they are.",
      }),
  })
  .meta({
    id: "DatingProfileRequest",
    example: {
      visible: true,
      bio: "Hiking, film photography and good coffee.",
      interests: ["hiking", "photography"],
      birth_year: 1994,
    },
  });

const photosField = mediaItemSchema
  .array()
  .meta({ description: "The profile's photos, in order (up to 6)." });

export const datingProfileSchema = z
  .object({
    user_id: z.string(),
    visible: z.boolean(),
    bio: z.string(),
    interests: z.array(z.string()),
    birth_year: z.number().int().nullable(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
    media: photosField,
  })
  .meta({ id: "DatingProfile" });
export type DatingProfileDto = z.infer<typeof datingProfileSchema>;

export const browsedProfileSchema = z
  .object({
    user_id: z.string(),
    display_name: z.string(),
    bio: z.string(),
    interests: z.array(z.string()),
    birth_year: z.number().int().nullable(),
    media: photosField,
  })
  .meta({ id: "BrowsedDatingProfile" });
export type BrowsedProfileDto = z.infer<typeof browsedProfileSchema>;

export const datingBrowseQuerySchema = pageQuerySchema(20);

/** The meetings list's cursor: it runs soonest first, so the next page is `after` the last meeting. */
export const meetingsQuerySchema = z.object({
  after: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: "The id of the last meeting of the previous page (`meta.next_after`)." }),
});

export const meetingsMetaSchema = z.object({
  limit: z.number().int(),
  next_after: z
    .string()
    .nullable()
    .meta({ description: "Pass as `after` for the next (later) page; null on the last page." }),
});

export const curatedContentSchema = z
  .object({ id: z.string(), title: z.string(), body: z.string(), published_at: timestampSchema })
  .meta({ id: "CuratedContent" });
export type CuratedContentDto = z.infer<typeof curatedContentSchema>;

export const curatedContentQuerySchema = pageQuerySchema(20);

export const announcementSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    body: z.string(),
    published: z.boolean(),
    published_at: timestampSchema.nullable(),
    created_at: timestampSchema,
  })
  .meta({ id: "Announcement" });
export type AnnouncementDto = z.infer<typeof announcementSchema>;

export const announcementsQuerySchema = pageQuerySchema(20);

export const meetingStatusSchema = z.enum(["scheduled", "active", "ended"]);

/** A private meeting names at most this many invitees. */
const MEETING_INVITEES_MAX = 100;

export const meetingVisibilitySchema = z.enum(["open", "private"]).meta({
  description:
    "`open`: listed to and joinable by every member; `private`: by its host and invitees only (anyone " +
    "else is answered 404, as for a meeting that does not exist).",
});

const inviteeIdsSchema = z
  .array(z.string().min(1).max(64))
  .min(1)
  .max(MEETING_INVITEES_MAX)
  .superRefine((ids, context) => {
    const seen = new Set<string>();
    for (const [index, id] of ids.entries()) {
      if (seen.has(id)) {
        context.addIssue({ code: "custom", path: [index], message: "is named twice" });
      }
      seen.add(id);
    }
  })
  .meta({
    description:
      "Makes the meeting private: user ids (1-100, each once, never the host's) of the members who may " +
      "see and join it besides the host. Fixed at creation. Each must be an active account with no block " +
      "between it and the host, either way; otherwise the request is 422 `validation_failed` with one " +
      "detail per refused entry (`invitee_ids.<index>`; an account that cannot be invited gets `cannot be " +
      "invited` whatever the reason, so the answer does not tell who blocked the host) and nothing is " +
      "created. Leave it out for an open meeting.",
  });

export const createMeetingRequestSchema = z
  .object({
    title: z.string().trim().min(1).max(200),
    starts_at: dateTimeInputSchema.meta({ description: "RFC 3339." }),
    invitee_ids: inviteeIdsSchema.optional(),
  })
  .meta({
    id: "CreateMeetingRequest",
    example: {
      title: "Community call",
      starts_at: "2026-12-01T18:00:00Z",
      invitee_ids: ["0193a5b2-7c1e-7d4f-8a9b-0c1d2e3f4a5b"],
    },
  });

export const meetingSchema = z
  .object({
    id: z.string(),
    host_id: z.string(),
    title: z.string(),
    starts_at: timestampSchema,
    status: meetingStatusSchema,
    visibility: meetingVisibilitySchema,
    invitee_ids: z.array(z.string()).meta({
      description: "The invitees of a private meeting, by user id in id order; empty for an open meeting.",
    }),
  })
  .meta({ id: "Meeting" });
export type MeetingDto = z.infer<typeof meetingSchema>;

export const meetingParticipantSchema = z
  .object({
    meeting_id: z.string(),
    user_id: z.string(),
    joined_at: timestampSchema,
    video_url: z.string().meta({ description: "The video service's secure WebSocket address." }),
    participant_token: z.string().meta({
      description:
        "A LiveKit access token (HS256 JWT) for this participant only: `sub` = the caller's user id, " +
        "`video.room` = the meeting id, `video.roomJoin` = true, `video.roomAdmin` for the host only. It " +
        "lives 10 minutes, and none is issued once the meeting has ended; ending the meeting deletes the " +
        "room, which disconnects everyone in the call.",
    }),
  })
  .meta({ id: "MeetingParticipant" });
export type MeetingParticipantDto = z.infer<typeof meetingParticipantSchema>;

export const leftMeetingSchema = z.object({
  meeting_id: z.string(),
  user_id: z.string(),
  left_at: timestampSchema,
});

const tags = ["Lifestyle"];

/** Dating profiles, curated content, announcements and video meetings. */
export const lifestyleOperations = defineOperations({
  datingProfilePut: {
    method: "PUT",
    path: "/api/v1/dating/profile",
    auth: "bearer",
    tags,
    summary: "Create or update the caller's dating profile",
    body: datingProfileRequestSchema,
    responses: { 200: { description: "The profile.", data: datingProfileSchema } },
    errors: ["unauthorized", "validation_failed", "content_blocked"],
  },
  datingBrowse: {
    method: "GET",
    path: "/api/v1/dating/browse",
    auth: "bearer",
    tags,
    summary: "Browse other members' visible dating profiles",
    query: datingBrowseQuerySchema,
    responses: {
      200: { description: "A page of profiles.", data: z.array(browsedProfileSchema), meta: pageMetaSchema },
    },
    errors: ["unauthorized", "validation_failed"],
  },
  curatedContentList: {
    method: "GET",
    path: "/api/v1/curated-content",
    auth: "bearer",
    tags,
    summary: "Published curated content",
    query: curatedContentQuerySchema,
    responses: {
      200: { description: "A page of items.", data: z.array(curatedContentSchema), meta: pageMetaSchema },
    },
    errors: ["unauthorized", "validation_failed"],
  },
  announcementsList: {
    method: "GET",
    path: "/api/v1/announcements",
    auth: "bearer",
    tags,
    summary: "Published announcements",
    query: announcementsQuerySchema,
    responses: {
      200: {
        description: "A page of announcements.",
        data: z.array(announcementSchema),
        meta: pageMetaSchema,
      },
    },
    errors: ["unauthorized", "validation_failed"],
  },
  meetingsList: {
    method: "GET",
    path: "/api/v1/meetings",
    auth: "bearer",
    tags,
    summary: "Scheduled and active meetings",
    query: meetingsQuerySchema,
    responses: {
      200: {
        description: "Up to 50 meetings, soonest first.",
        data: z.array(meetingSchema),
        meta: meetingsMetaSchema,
      },
    },
    errors: ["unauthorized", "validation_failed"],
  },
  meetingsCreate: {
    method: "POST",
    path: "/api/v1/meetings",
    auth: "bearer",
    writeLimit: "meetings",
    tags,
    summary: "Schedule a meeting",
    idempotencyKey: "optional",
    body: createMeetingRequestSchema,
    responses: { 201: { description: "Scheduled.", data: meetingSchema } },
    errors: ["unauthorized", "validation_failed"],
  },
  meetingsJoin: {
    method: "POST",
    path: "/api/v1/meetings/{id}/join",
    auth: "bearer",
    tags,
    summary: "Join a meeting and get video credentials",
    params: idParamSchema,
    responses: { 200: { description: "The participant and credentials.", data: meetingParticipantSchema } },
    errors: [
      "unauthorized",
      "forbidden",
      "not_found",
      "validation_failed",
      "meeting_ended",
      "video_unavailable",
    ],
  },
  meetingsLeave: {
    method: "POST",
    path: "/api/v1/meetings/{id}/leave",
    auth: "bearer",
    tags,
    summary: "Leave a meeting",
    params: idParamSchema,
    responses: { 200: { description: "Left.", data: leftMeetingSchema } },
    errors: ["unauthorized", "not_found"],
  },
  meetingsEnd: {
    method: "POST",
    path: "/api/v1/meetings/{id}/end",
    auth: "bearer",
    tags,
    summary: "End a meeting (its host)",
    params: idParamSchema,
    responses: { 200: { description: "Ended.", data: meetingSchema } },
    errors: ["unauthorized", "forbidden", "not_found"],
  },
});
