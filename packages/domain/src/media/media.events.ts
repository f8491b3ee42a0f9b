import type { EventKind } from "../outbox/event-kind";
import { type MediaObjectDeps, mediaObjectsDeleted } from "./events/objects-deleted";

/** The media area's outbox event kinds (registered in event-kinds.ts, delivered by the worker). */
export const mediaEvents: ReadonlyArray<EventKind<unknown, MediaObjectDeps>> = [mediaObjectsDeleted];
