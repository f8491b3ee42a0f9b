import type { Actor } from "../common/actor";
import { type LifestyleDeps, MEETINGS_PER_READ } from "./lifestyle.deps";
import type { Meeting } from "./lifestyle.types";

/**
 * Scheduled and active meetings the caller may see (`canSeeMeeting`: open ones, and private ones
 * they host or are invited to), without those of a host in a block with the caller either way;
 * soonest first, at most 50: the first page, or the one after the meeting `after`.
 */
export const listMeetings = (
  { repos }: Pick<LifestyleDeps, "repos">,
  actor: Actor,
  after?: string,
): Promise<Meeting[]> => repos.meetings.listOpenFor(actor.userId, { after, limit: MEETINGS_PER_READ });
