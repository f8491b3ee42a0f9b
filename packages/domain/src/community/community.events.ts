import type { NotifyDeps } from "../notifications/notify";
import type { EventKind } from "../outbox/event-kind";
import { reportClosed } from "./events/report-closed";

/** The community area's outbox event kinds (registered in event-kinds.ts, delivered by the worker). */
export const communityEvents: ReadonlyArray<EventKind<unknown, NotifyDeps>> = [reportClosed];
