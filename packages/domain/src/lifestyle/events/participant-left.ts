import { z } from "zod";
import { defineEventKind } from "../../outbox/event-kind";
import { type MeetingRoomDeps, requireVideoRooms } from "../lifestyle.deps";

/**
 * A participant left a meeting: they are removed from its room on the video service, so a client
 * that left without hanging up (or was told to leave) is out of the call. A member who has joined
 * again by the time it is delivered is in the call on purpose and is not removed. Written only
 * when a video service is configured; a participant no longer in the room counts as removed.
 */
export const participantLeft = defineEventKind({
  kind: "meeting.participant_left",
  aggregateType: "meeting",
  payload: z.object({ meeting_id: z.uuid(), user_id: z.uuid(), left_at: z.iso.datetime() }),
  deliver: async ({ video, meetings }: MeetingRoomDeps, { payload }) => {
    if (await meetings.isParticipating(payload.meeting_id, payload.user_id)) {
      return;
    }
    await requireVideoRooms(video).removeParticipant(payload.meeting_id, payload.user_id);
  },
});

/** The event of `userId` leaving the meeting `meetingId` at `leftAt`. */
export const participantLeftEvent = (meetingId: string, userId: string, leftAt: Date) =>
  participantLeft.event(meetingId, { meeting_id: meetingId, user_id: userId, left_at: leftAt.toISOString() });
