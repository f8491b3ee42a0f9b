import type { Actor } from "../shared/actor";
import { NotFoundError } from "../shared/app-error";
import { type LifestyleDeps, PARTICIPANT_TOKEN_TTL_SECONDS } from "./lifestyle.deps";
import { MeetingEndedError, VideoUnavailableError } from "./lifestyle.errors";
import { isMeetingHost } from "./lifestyle.policy";
import type { MeetingParticipant } from "./lifestyle.types";

/**
 * Joins a meeting: 404 unknown, 422 meeting_ended, 503 video_unavailable without a video service
 * (checked before anything is recorded). The participation is recorded (joining twice is one
 * active participation) and the host's first join makes the meeting active, in one transaction
 * that holds the meeting against a concurrent end. The token is issued after the commit: a
 * LiveKit access token for this room and user, 10 minutes, room admin for the host only.
 */
export const joinMeeting = async (
  deps: Pick<LifestyleDeps, "uow" | "clock" | "ids" | "video">,
  actor: Actor,
  meetingId: string,
): Promise<MeetingParticipant> => {
  const { uow, clock, ids, video } = deps;
  const now = clock.now();
  const joined = await uow.run(async (tx) => {
    const meeting = await tx.meetings.findByIdForJoin(meetingId);
    if (!meeting) {
      throw new NotFoundError("Meeting");
    }
    if (meeting.status === "ended") {
      throw new MeetingEndedError();
    }
    if (!video) {
      throw new VideoUnavailableError();
    }
    const joinedAt = await tx.meetings.join({
      id: ids.next(),
      meetingId: meeting.id,
      userId: actor.userId,
      at: now,
    });
    const host = isMeetingHost(actor, meeting);
    if (host && meeting.status === "scheduled") {
      await tx.meetings.activate(meeting.id, now);
    }

    return { meeting, joinedAt, host, video };
  });
  const participantToken = await joined.video.issue({
    identity: actor.userId,
    room: joined.meeting.id,
    admin: joined.host,
    ttlSeconds: PARTICIPANT_TOKEN_TTL_SECONDS,
  });

  return {
    meetingId: joined.meeting.id,
    userId: actor.userId,
    joinedAt: joined.joinedAt,
    videoUrl: joined.video.url,
    participantToken,
  };
};
