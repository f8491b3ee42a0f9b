import { idParamSchema } from "@agora/contracts/common";
import { pageMetaSchema, successEnvelope } from "@agora/contracts/envelope";
import {
  announcementSchema,
  announcementsQuerySchema,
  browsedProfileSchema,
  createMeetingRequestSchema,
  curatedContentQuerySchema,
  curatedContentSchema,
  datingBrowseQuerySchema,
  datingProfileRequestSchema,
  datingProfileSchema,
  leftMeetingSchema,
  meetingParticipantSchema,
  meetingSchema,
} from "@agora/contracts/lifestyle";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { browseDatingProfiles } from "@agora/domain/lifestyle/browse-dating-profiles";
import { createMeeting } from "@agora/domain/lifestyle/create-meeting";
import { endMeeting } from "@agora/domain/lifestyle/end-meeting";
import { joinMeeting } from "@agora/domain/lifestyle/join-meeting";
import { leaveMeeting } from "@agora/domain/lifestyle/leave-meeting";
import type { LifestyleDeps } from "@agora/domain/lifestyle/lifestyle.deps";
import { listAnnouncements } from "@agora/domain/lifestyle/list-announcements";
import { listCuratedContent } from "@agora/domain/lifestyle/list-curated-content";
import { listMeetings } from "@agora/domain/lifestyle/list-meetings";
import { upsertDatingProfile } from "@agora/domain/lifestyle/upsert-dating-profile";
import { createRoute, z } from "@hono/zod-openapi";
import { actorOf, requireAuth } from "../../http/middleware/auth";
import { body, createRouter, errors, json } from "../../http/openapi";
import { ok } from "../../http/respond";
import {
  toAnnouncementDto,
  toBrowsedProfileDto,
  toCuratedContentDto,
  toDatingProfileDto,
  toMeetingDto,
  toParticipantDto,
} from "./lifestyle.presenter";

const tags = ["Lifestyle"];
const secured = [{ bearerAuth: [] }];

/** Mounted at /api/v1. */
export const createLifestyleRoutes = ({
  identity,
  lifestyle,
}: {
  identity: IdentityDeps;
  lifestyle: LifestyleDeps;
}) => {
  const auth = requireAuth(identity);
  const route = <R extends Parameters<typeof createRoute>[0]>(config: R) =>
    createRoute({ tags, security: secured, middleware: [auth], ...config });

  const putProfile = route({
    method: "put",
    path: "/dating/profile",
    summary: "Create or update the caller's dating profile",
    description:
      "Replaces the whole profile (fields left out take their defaults). `visible: false` takes it out of browse.",
    request: body(datingProfileRequestSchema),
    responses: {
      200: json(successEnvelope(datingProfileSchema), "The profile."),
      ...errors("unauthorized", "validation_failed"),
    },
  });

  const browse = route({
    method: "get",
    path: "/dating/browse",
    summary: "Browse other members' visible dating profiles",
    description:
      "Other members whose profile is `visible`, never the caller; anyone the caller blocks or who blocks the " +
      "caller is left out, as are suspended and deleted accounts. The order is stable: the profile created " +
      "first comes first, then by user id. `meta` carries `{ limit, offset, total }`.",
    request: { query: datingBrowseQuerySchema },
    responses: {
      200: json(successEnvelope(z.array(browsedProfileSchema), pageMetaSchema), "A page of profiles."),
      ...errors("unauthorized", "validation_failed"),
    },
  });

  const curated = route({
    method: "get",
    path: "/curated-content",
    summary: "Published curated content",
    description: "Newest first; `meta` carries `{ limit, offset, total }`.",
    request: { query: curatedContentQuerySchema },
    responses: {
      200: json(successEnvelope(z.array(curatedContentSchema), pageMetaSchema), "A page of items."),
      ...errors("unauthorized", "validation_failed"),
    },
  });

  const announcements = route({
    method: "get",
    path: "/announcements",
    summary: "Published announcements",
    description: "Newest first; `meta` carries `{ limit, offset, total }`.",
    request: { query: announcementsQuerySchema },
    responses: {
      200: json(successEnvelope(z.array(announcementSchema), pageMetaSchema), "A page of announcements."),
      ...errors("unauthorized", "validation_failed"),
    },
  });

  const listMeetingsRoute = route({
    method: "get",
    path: "/meetings",
    summary: "Scheduled and active meetings",
    description: "Meetings that are `scheduled` or `active`, soonest first (then by id), at most 50.",
    responses: {
      200: json(successEnvelope(z.array(meetingSchema)), "Up to 50 meetings."),
      ...errors("unauthorized"),
    },
  });

  const create = route({
    method: "post",
    path: "/meetings",
    summary: "Schedule a meeting",
    description:
      "The caller is the host. It starts `scheduled` and becomes `active` when the host first joins.",
    request: body(createMeetingRequestSchema),
    responses: {
      201: json(successEnvelope(meetingSchema), "Scheduled."),
      ...errors("unauthorized", "validation_failed"),
    },
  });

  const join = route({
    method: "post",
    path: "/meetings/{id}/join",
    summary: "Join a meeting and get video credentials",
    description:
      "Records the caller's participation (joining again is the same participation) and answers the video " +
      "service's address with a participant token: a LiveKit access token for this room and user, valid 10 " +
      "minutes, with room administration for the host only. The host's first join makes the meeting `active`. " +
      "404 unknown meeting; 422 `meeting_ended`; 503 `video_unavailable` when no video service is configured " +
      "(nothing is recorded then). A join and a concurrent end are serialized: no one joins an ended meeting.",
    request: { params: idParamSchema },
    responses: {
      200: json(successEnvelope(meetingParticipantSchema), "The participant and credentials."),
      ...errors("unauthorized", "not_found", "validation_failed", "meeting_ended", "video_unavailable"),
    },
  });

  const leave = route({
    method: "post",
    path: "/meetings/{id}/leave",
    summary: "Leave a meeting",
    description: "Ends the caller's active participation; 404 when there is none.",
    request: { params: idParamSchema },
    responses: {
      200: json(successEnvelope(leftMeetingSchema), "Left."),
      ...errors("unauthorized", "not_found"),
    },
  });

  const end = route({
    method: "post",
    path: "/meetings/{id}/end",
    summary: "End a meeting (its host)",
    description:
      "The meeting becomes `ended` and every active participation ends with it; it leaves the list and joins " +
      "are 422. Anyone but the host: 403; unknown: 404. Ending an ended meeting answers it unchanged.",
    request: { params: idParamSchema },
    responses: {
      200: json(successEnvelope(meetingSchema), "Ended."),
      ...errors("unauthorized", "forbidden", "not_found"),
    },
  });

  return createRouter()
    .openapi(putProfile, async (c) => {
      const input = c.req.valid("json");
      const profile = await upsertDatingProfile(lifestyle, actorOf(c), {
        visible: input.visible,
        bio: input.bio,
        interests: input.interests,
        birthYear: input.birth_year,
      });

      return ok(c, toDatingProfileDto(profile));
    })
    .openapi(browse, async (c) => {
      const page = c.req.valid("query");
      const result = await browseDatingProfiles(lifestyle, actorOf(c), page);

      return ok(c, result.items.map(toBrowsedProfileDto), { meta: { ...page, total: result.total } });
    })
    .openapi(curated, async (c) => {
      const page = c.req.valid("query");
      actorOf(c);
      const result = await listCuratedContent(lifestyle, page);

      return ok(c, result.items.map(toCuratedContentDto), { meta: { ...page, total: result.total } });
    })
    .openapi(announcements, async (c) => {
      const page = c.req.valid("query");
      actorOf(c);
      const result = await listAnnouncements(lifestyle, page);

      return ok(c, result.items.map(toAnnouncementDto), { meta: { ...page, total: result.total } });
    })
    .openapi(listMeetingsRoute, async (c) => {
      actorOf(c);

      return ok(c, (await listMeetings(lifestyle)).map(toMeetingDto));
    })
    .openapi(create, async (c) => {
      const input = c.req.valid("json");
      const meeting = await createMeeting(lifestyle, actorOf(c), {
        title: input.title,
        startsAt: new Date(input.starts_at),
      });

      return ok(c, toMeetingDto(meeting), { status: 201 });
    })
    .openapi(join, async (c) =>
      ok(c, toParticipantDto(await joinMeeting(lifestyle, actorOf(c), c.req.valid("param").id))),
    )
    .openapi(leave, async (c) => {
      const left = await leaveMeeting(lifestyle, actorOf(c), c.req.valid("param").id);

      return ok(c, { meeting_id: left.meetingId, user_id: left.userId, left_at: left.leftAt.toISOString() });
    })
    .openapi(end, async (c) =>
      ok(c, toMeetingDto(await endMeeting(lifestyle, actorOf(c), c.req.valid("param").id))),
    );
};
