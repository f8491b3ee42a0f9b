import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import { assertNotBlocked } from "../community/blocks.policy";
import { type LifestyleDeps, PARTICIPANT_TOKEN_TTL_SECONDS } from "./lifestyle.deps";
import { MeetingEndedError, VideoUnavailableError } from "./lifestyle.errors";
import { canSeeMeeting, isMeetingHost } from "./lifestyle.policy";
import type { MeetingParticipant } from "./lifestyle.types";
import { meetingAfterJoin } from "./meetings.policy";

/**
 * Joins a meeting: 404 unknown, or private and the caller neither its host nor an invitee; 403
 * when the caller and the host block each other (either way); 422 meeting_ended; 503
 * video_unavailable without a video service (checked before anything is recorded). The
 * participation is recorded (joining twice is one active participation) and the host's first join
 * makes the meeting active, in one transaction that holds the meeting against a concurrent end.
 *
 * The token is signed in that transaction too (local signing, no call to the video service), so
 * no token is ever issued for a meeting that has ended: an end waits for the join, and a join
 * after the end is 422. It is a LiveKit access token for this room and the caller's identity only,
 * valid 10 minutes, with room administration for the host only.
 */
export const joinMeeting = async (
  deps: Pick<LifestyleDeps, "uow" | "clock" | "ids" | "video">,
  actor: Actor,
  meetingId: string,
): Promise<MeetingParticipant> => {
  const { uow, clock, ids, video } = deps;
  const now = clock.now();

  return uow.run(async (tx) => {
    const meeting = await tx.meetings.findByIdForJoin(meetingId);
    if (!meeting || !canSeeMeeting(actor, meeting)) {
      throw new NotFoundError("Meeting");
    }
    const host = isMeetingHost(actor, meeting);
    if (!host) {
      await assertNotBlocked(tx.blocks, actor.userId, meeting.hostId);
    }
    const move = meetingAfterJoin(meeting.status, host);
    if ("refused" in move) {
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
    if (move.to !== meeting.status) {
      await tx.meetings.activate(meeting.id, now);
    }
    const participantToken = await video.issue({
      identity: actor.userId,
      room: meeting.id,
      admin: host,
      ttlSeconds: PARTICIPANT_TOKEN_TTL_SECONDS,
    });

    return { meetingId: meeting.id, userId: actor.userId, joinedAt, videoUrl: video.url, participantToken };
  });
};
