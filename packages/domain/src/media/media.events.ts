import type { EventKind } from "../outbox/event-kind";
import { mediaUploaded } from "./events/media-uploaded";
import { type MediaObjectDeps, mediaObjectsDeleted } from "./events/objects-deleted";
import type { MediaProcessingDeps } from "./process-media";

/** The media area's outbox event kinds (registered in event-kinds.ts, delivered by the worker). */
export const mediaEvents: ReadonlyArray<EventKind<unknown, MediaObjectDeps & MediaProcessingDeps>> = [
  mediaUploaded,
  mediaObjectsDeleted,
];
