import { type LifestyleDeps, MEETINGS_PER_READ } from "./lifestyle.deps";
import type { Meeting } from "./lifestyle.types";

/** Scheduled and active meetings, soonest first, at most 50. */
export const listMeetings = ({ repos }: Pick<LifestyleDeps, "repos">): Promise<Meeting[]> =>
  repos.meetings.listOpen(MEETINGS_PER_READ);
