import { z } from "zod";
import { defineEventKind } from "../../outbox/event-kind";
import { type MeetingRoomDeps, requireVideoRooms } from "../lifestyle.deps";
import type { Meeting } from "../lifestyle.types";

/**
 * A meeting ended: its room is deleted on the video service, which disconnects everyone still in
 * the call (their tokens would otherwise keep being refreshed by the service). Written only when
 * a video service is configured; a room that no one ever opened counts as deleted.
 */
export const meetingEnded = defineEventKind({
  kind: "meeting.ended",
  aggregateType: "meeting",
  payload: z.object({ meeting_id: z.uuid(), ended_at: z.iso.datetime() }),
  deliver: async ({ video }: Pick<MeetingRoomDeps, "video">, { payload }) => {
    await requireVideoRooms(video).deleteRoom(payload.meeting_id);
  },
});

/** The event of `meeting` ending. */
export const meetingEndedEvent = (meeting: Pick<Meeting, "id">, endedAt: Date) =>
  meetingEnded.event(meeting.id, { meeting_id: meeting.id, ended_at: endedAt.toISOString() });
