import { lifestyleOperations } from "@agora/contracts/lifestyle";
import { browseDatingProfiles } from "@agora/domain/lifestyle/browse-dating-profiles";
import { createMeeting } from "@agora/domain/lifestyle/create-meeting";
import { endMeeting } from "@agora/domain/lifestyle/end-meeting";
import { joinMeeting } from "@agora/domain/lifestyle/join-meeting";
import { leaveMeeting } from "@agora/domain/lifestyle/leave-meeting";
import { type LifestyleDeps, MEETINGS_PER_READ } from "@agora/domain/lifestyle/lifestyle.deps";
import { listAnnouncements } from "@agora/domain/lifestyle/list-announcements";
import { listCuratedContent } from "@agora/domain/lifestyle/list-curated-content";
import { listMeetings } from "@agora/domain/lifestyle/list-meetings";
import { upsertDatingProfile } from "@agora/domain/lifestyle/upsert-dating-profile";
import { actorOf } from "../../http/middleware/auth";
import { type Handled, handle } from "../../http/operations";
import { ok } from "../../http/respond";
import { toMediaItemDto } from "../media/media.presenter";
import {
  toAnnouncementDto,
  toBrowsedProfileDto,
  toCuratedContentDto,
  toDatingProfileDto,
  toMeetingDto,
  toParticipantDto,
} from "./lifestyle.presenter";

export const lifestyleRoutes = ({ lifestyle }: { lifestyle: LifestyleDeps }): Handled[] => [
  handle(lifestyleOperations.datingProfilePut, async (c) => {
    const input = c.req.valid("json");
    const { profile, media } = await upsertDatingProfile(lifestyle, actorOf(c), {
      visible: input.visible,
      bio: input.bio,
      interests: input.interests,
      birthYear: input.birth_year,
      mediaAssetIds: input.media_asset_ids,
    });

    return ok(c, { ...toDatingProfileDto(profile), media: media.map(toMediaItemDto) });
  }),
  handle(lifestyleOperations.datingBrowse, async (c) => {
    const page = c.req.valid("query");
    const result = await browseDatingProfiles(lifestyle, actorOf(c), page);

    const items = result.items.map((profile) => ({
      ...toBrowsedProfileDto(profile),
      media: (result.photos.get(profile.userId) ?? []).map(toMediaItemDto),
    }));

    return ok(c, items, { meta: { ...page, total: result.total } });
  }),
  handle(lifestyleOperations.curatedContentList, async (c) => {
    const page = c.req.valid("query");
    actorOf(c);
    const result = await listCuratedContent(lifestyle, page);

    return ok(c, result.items.map(toCuratedContentDto), { meta: { ...page, total: result.total } });
  }),
  handle(lifestyleOperations.announcementsList, async (c) => {
    const page = c.req.valid("query");
    actorOf(c);
    const result = await listAnnouncements(lifestyle, page);

    return ok(c, result.items.map(toAnnouncementDto), { meta: { ...page, total: result.total } });
  }),
  handle(lifestyleOperations.meetingsList, async (c) => {
    const meetings = await listMeetings(lifestyle, actorOf(c), c.req.valid("query").after);
    const last = meetings.length === MEETINGS_PER_READ ? meetings[meetings.length - 1] : undefined;

    return ok(c, meetings.map(toMeetingDto), {
      meta: { limit: MEETINGS_PER_READ, next_after: last?.id ?? null },
    });
  }),
  handle(lifestyleOperations.meetingsCreate, async (c) => {
    const input = c.req.valid("json");
    const meeting = await createMeeting(lifestyle, actorOf(c), {
      title: input.title,
      startsAt: new Date(input.starts_at),
      inviteeIds: input.invitee_ids,
    });

    return ok(c, toMeetingDto(meeting), { status: 201 });
  }),
  handle(lifestyleOperations.meetingsJoin, async (c) =>
    ok(c, toParticipantDto(await joinMeeting(lifestyle, actorOf(c), c.req.valid("param").id))),
  ),
  handle(lifestyleOperations.meetingsLeave, async (c) => {
    const left = await leaveMeeting(lifestyle, actorOf(c), c.req.valid("param").id);

    return ok(c, { meeting_id: left.meetingId, user_id: left.userId, left_at: left.leftAt.toISOString() });
  }),
  handle(lifestyleOperations.meetingsEnd, async (c) =>
    ok(c, toMeetingDto(await endMeeting(lifestyle, actorOf(c), c.req.valid("param").id))),
  ),
];
