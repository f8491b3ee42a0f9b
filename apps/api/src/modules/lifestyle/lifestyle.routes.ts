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
    description:
      "Meetings that are `scheduled` or `active` and that the caller may see, soonest first (then by id), at " +
      "most 50: every open meeting, and the private ones the caller hosts or is invited to (no one else ever " +
      "sees a private meeting listed). Meetings of a host who blocks the caller, or whom the caller blocks, are " +
      "left out.",
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
      "The caller is the host. It starts `scheduled` and becomes `active` when the host first joins. With " +
      "`invitee_ids` the meeting is `private`: only the host and the invitees see it listed and may join it; " +
      "anyone else is answered 404 on every meeting route. Without, it is `open` to every member. An invitee " +
      "that cannot be invited (no such active account, the host, named twice, or a block between them and " +
      "the host either way) makes the request 422 `validation_failed` with one detail per entry, and nothing " +
      "is created.",
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
      "service's address with a participant token: a LiveKit access token for this room and the caller's " +
      "identity only, with room administration for the host only. The token lives 10 minutes and never " +
      "outlives the meeting: a meeting has no scheduled end, its end is the host's `end`, and no token is " +
      "issued once that has happened (a join and a concurrent end are serialized, and the token is signed " +
      "before the join commits); `end` then deletes the room, disconnecting everyone. The host's first join " +
      "makes the meeting `active`. 404 unknown meeting, or a private one the caller neither hosts nor is " +
      "invited to; 403 `forbidden` when the caller and the host block each other (either way); 422 " +
      "`meeting_ended`; 503 `video_unavailable` when no video service is configured (nothing is recorded then).",
    request: { params: idParamSchema },
    responses: {
      200: json(successEnvelope(meetingParticipantSchema), "The participant and credentials."),
      ...errors(
        "unauthorized",
        "forbidden",
        "not_found",
        "validation_failed",
        "meeting_ended",
        "video_unavailable",
      ),
    },
  });

  const leave = route({
    method: "post",
    path: "/meetings/{id}/leave",
    summary: "Leave a meeting",
    description:
      "Ends the caller's active participation; 404 when there is none (a private meeting the caller may not " +
      "see has none). With a video service configured, the caller is then removed from the room by the " +
      "outbox worker (LiveKit `RemoveParticipant`, retried with backoff and dead-lettered after ten " +
      "failures), unless they have joined again by then; the answer does not wait for it.",
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
      "are 422 `meeting_ended`. With a video service configured, the room is then deleted by the outbox " +
      "worker (LiveKit `DeleteRoom`, which disconnects everyone; retried with backoff and dead-lettered after " +
      "ten failures); the answer does not wait for it. Anyone else who may see the meeting: 403; unknown, or " +
      "a private meeting the caller neither hosts nor is invited to: 404. Ending an ended meeting answers it " +
      "unchanged.",
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
    .openapi(listMeetingsRoute, async (c) =>
      ok(c, (await listMeetings(lifestyle, actorOf(c))).map(toMeetingDto)),
    )
    .openapi(create, async (c) => {
      const input = c.req.valid("json");
      const meeting = await createMeeting(lifestyle, actorOf(c), {
        title: input.title,
        startsAt: new Date(input.starts_at),
        inviteeIds: input.invitee_ids,
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
