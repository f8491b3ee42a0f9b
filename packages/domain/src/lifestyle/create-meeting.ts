import type { Actor } from "../shared/actor";
import type { LifestyleDeps } from "./lifestyle.deps";
import type { Meeting } from "./lifestyle.types";

/** A meeting hosted by the caller, `scheduled` until the host joins. */
export const createMeeting = async (
  { repos, clock, ids }: Pick<LifestyleDeps, "repos" | "clock" | "ids">,
  actor: Actor,
  input: { title: string; startsAt: Date },
): Promise<Meeting> => {
  const now = clock.now();
  const meeting: Meeting = {
    id: ids.next(),
    hostId: actor.userId,
    title: input.title,
    startsAt: input.startsAt,
    status: "scheduled",
    endedAt: null,
    createdAt: now,
  };
  await repos.meetings.create(meeting);

  return meeting;
};
