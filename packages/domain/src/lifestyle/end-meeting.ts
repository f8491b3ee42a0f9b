import type { Actor } from "../shared/actor";
import { ForbiddenError, NotFoundError } from "../shared/app-error";
import type { LifestyleDeps } from "./lifestyle.deps";
import { isMeetingHost } from "./lifestyle.policy";
import type { Meeting } from "./lifestyle.types";

/**
 * Ends a meeting (its host only: 403 for anyone else; 404 unknown). Every active participation
 * ends with it; it leaves the list and joins are 422. Ending an ended meeting answers it as it is.
 */
export const endMeeting = async (
  { uow, repos, clock }: Pick<LifestyleDeps, "uow" | "repos" | "clock">,
  actor: Actor,
  meetingId: string,
): Promise<Meeting> => {
  const meeting = await repos.meetings.findById(meetingId);
  if (!meeting) {
    throw new NotFoundError("Meeting");
  }
  if (!isMeetingHost(actor, meeting)) {
    throw new ForbiddenError("Only the host can end this meeting.");
  }
  const ended = await uow.run((tx) => tx.meetings.end(meeting.id, clock.now()));
  if (!ended) {
    throw new NotFoundError("Meeting");
  }

  return ended;
};
