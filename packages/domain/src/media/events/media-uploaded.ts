import { z } from "zod";
import { defineEventKind } from "../../outbox/event-kind";
import { type MediaProcessingDeps, processMedia } from "../process-media";

/**
 * An upload was confirmed in the store: the worker checks and processes its bytes (see
 * processMedia) before any read gets a URL to them.
 */
export const mediaUploaded = defineEventKind({
  kind: "media.uploaded",
  aggregateType: "media_asset",
  payload: z.object({ media_asset_id: z.uuid() }),
  // Seconds of image work each: claimed apart, so chat notices and receipts never wait behind it.
  slowDelivery: true,
  deliver: (deps: MediaProcessingDeps, event) => processMedia(deps, event, event.payload.media_asset_id),
});
