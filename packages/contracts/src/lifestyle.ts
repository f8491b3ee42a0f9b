import { z } from "zod";
import { dateTimeInputSchema, pageQuerySchema, timestampSchema } from "./common";

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

export const datingProfileSchema = z
  .object({
    user_id: z.string(),
    visible: z.boolean(),
    bio: z.string(),
    interests: z.array(z.string()),
    birth_year: z.number().int().nullable(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
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
  })
  .meta({ id: "BrowsedDatingProfile" });
export type BrowsedProfileDto = z.infer<typeof browsedProfileSchema>;

export const datingBrowseQuerySchema = pageQuerySchema(20);

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

export const createMeetingRequestSchema = z
  .object({
    title: z.string().trim().min(1).max(200),
    starts_at: dateTimeInputSchema.meta({ description: "RFC 3339." }),
  })
  .meta({
    id: "CreateMeetingRequest",
    example: { title: "Community call", starts_at: "2026-12-01T18:00:00Z" },
  });

export const meetingSchema = z
  .object({
    id: z.string(),
    host_id: z.string(),
    title: z.string(),
    starts_at: timestampSchema,
    status: meetingStatusSchema,
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
        "A LiveKit access token (HS256 JWT): `sub` = the user id, `video.room` = the meeting id, " +
        "`video.roomJoin` = true, `video.roomAdmin` for the host only; valid 10 minutes.",
    }),
  })
  .meta({ id: "MeetingParticipant" });
export type MeetingParticipantDto = z.infer<typeof meetingParticipantSchema>;

export const leftMeetingSchema = z.object({
  meeting_id: z.string(),
  user_id: z.string(),
  left_at: timestampSchema,
});
