import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import { participantLeftEvent } from "./events/participant-left";
import type { LifestyleDeps } from "./lifestyle.deps";

/**
 * Ends the caller's active participation; 404 when there is none (or no such meeting, or one the
 * caller may not see: they cannot have joined it). With a video service configured, the
 * `meeting.participant_left` event is written in the same transaction: the outbox worker removes
 * the caller from the room.
 */
export const leaveMeeting = async (
  { uow, clock, video }: Pick<LifestyleDeps, "uow" | "clock" | "video">,
  actor: Actor,
  meetingId: string,
): Promise<{ meetingId: string; userId: string; leftAt: Date }> => {
  const now = clock.now();

  return uow.run(async (tx) => {
    if (!(await tx.meetings.leave(meetingId, actor.userId, now))) {
      throw new NotFoundError("Active participation");
    }
    if (video) {
      await tx.outbox.append(participantLeftEvent(meetingId, actor.userId, now), now);
    }

    return { meetingId, userId: actor.userId, leftAt: now };
  });
};
