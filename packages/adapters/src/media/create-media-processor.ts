import type { MediaProcessor } from "@agora/domain/media/media.ports";
import { loadOnce } from "../lazy";
import type { MediaProcessingSettings } from "./sharp-media-processor";

/** The image processor; sharp (libvips) is loaded at the first upload processed, not at start-up. */
export const createMediaProcessor = (settings: MediaProcessingSettings): MediaProcessor => {
  const processor = loadOnce(async () =>
    (await import("./sharp-media-processor")).createSharpMediaProcessor(settings),
  );

  return { process: async (...args) => (await processor()).process(...args) };
};
