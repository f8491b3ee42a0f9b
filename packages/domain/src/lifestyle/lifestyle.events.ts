import type { EventKind } from "../outbox/event-kind";
import { meetingEnded } from "./events/meeting-ended";
import { participantLeft } from "./events/participant-left";
import type { MeetingRoomDeps } from "./lifestyle.deps";

/** The lifestyle area's outbox event kinds (registered in event-kinds.ts, delivered by the worker). */
export const lifestyleEvents: ReadonlyArray<EventKind<unknown, MeetingRoomDeps>> = [
  meetingEnded,
  participantLeft,
];
