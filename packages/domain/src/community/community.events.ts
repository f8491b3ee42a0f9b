import { authorWarned } from "./events/author-warned";
import { reportClosed } from "./events/report-closed";

/** The community area's outbox event kinds (registered in event-kinds.ts, delivered by the worker). */
export const communityEvents = [reportClosed, authorWarned] as const;
