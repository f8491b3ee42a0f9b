import type { Actor } from "../shared/actor";
import { NotFoundError } from "../shared/app-error";
import type { LifestyleDeps } from "./lifestyle.deps";

/** Ends the caller's active participation; 404 when there is none (or no such meeting). */
export const leaveMeeting = async (
  { repos, clock }: Pick<LifestyleDeps, "repos" | "clock">,
  actor: Actor,
  meetingId: string,
): Promise<{ meetingId: string; userId: string; leftAt: Date }> => {
  const now = clock.now();
  if (!(await repos.meetings.leave(meetingId, actor.userId, now))) {
    throw new NotFoundError("Active participation");
  }

  return { meetingId, userId: actor.userId, leftAt: now };
};
