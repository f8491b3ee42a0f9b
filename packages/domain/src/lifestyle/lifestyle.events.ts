import { meetingEnded } from "./events/meeting-ended";
import { participantLeft } from "./events/participant-left";

/** The lifestyle area's outbox event kinds (registered in event-kinds.ts, delivered by the worker). */
export const lifestyleEvents = [meetingEnded, participantLeft] as const;
