import type { Actor } from "../common/actor";
import { ForbiddenError, NotFoundError } from "../common/app-error";
import { meetingEndedEvent } from "./events/meeting-ended";
import type { LifestyleDeps } from "./lifestyle.deps";
import { canSeeMeeting, isMeetingHost } from "./lifestyle.policy";
import type { Meeting } from "./lifestyle.types";
import { meetingAfterEnd } from "./meetings.policy";

/**
 * Ends a meeting (its host only: 403 for anyone else who may see it; 404 unknown, or private and
 * not theirs to see). Every active participation ends with it; it leaves the list and joins are
 * 422. With a video service configured, the `meeting.ended` event is written in the same
 * transaction: the outbox worker deletes the room, disconnecting everyone. Ending an ended
 * meeting answers it as it is and writes nothing.
 */
export const endMeeting = async (
  { uow, clock, video }: Pick<LifestyleDeps, "uow" | "clock" | "video">,
  actor: Actor,
  meetingId: string,
): Promise<Meeting> => {
  const now = clock.now();

  return uow.run(async (tx) => {
    const meeting = await tx.meetings.findById(meetingId);
    if (!meeting || !canSeeMeeting(actor, meeting)) {
      throw new NotFoundError("Meeting");
    }
    if ("refused" in meetingAfterEnd(meeting.status, isMeetingHost(actor, meeting))) {
      throw new ForbiddenError("Only the host can end this meeting.");
    }
    const result = await tx.meetings.end(meeting.id, now);
    if (!result) {
      throw new NotFoundError("Meeting");
    }
    if (result.ended && video) {
      await tx.outbox.append(meetingEndedEvent(result.meeting, now), now);
    }

    return result.meeting;
  });
};
