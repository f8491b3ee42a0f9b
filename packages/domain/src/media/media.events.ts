import { mediaUploaded } from "./events/media-uploaded";
import { mediaObjectsDeleted } from "./events/objects-deleted";

/** The media area's outbox event kinds (registered in event-kinds.ts, delivered by the worker). */
export const mediaEvents = [mediaUploaded, mediaObjectsDeleted] as const;
