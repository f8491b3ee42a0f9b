import type { VideoRooms, VideoTokenIssuer } from "@agora/domain/lifestyle/lifestyle.ports";
import { createLiveKitRooms } from "./livekit-rooms";
import { createLiveKitTokens } from "./livekit-tokens";

/** VIDEO_* and VIDEO_TIMEOUT_MS: video's slice of the configuration. */
export type VideoConfig = {
  video: { url: string; apiKey: string; apiSecret: string } | undefined;
  timeouts: { videoMs: number };
};

/**
 * The video service's adapters from VIDEO_URL, VIDEO_API_KEY and VIDEO_API_SECRET, or undefined
 * without them: joins are then 503, and ends and leaves tell no video service. Participant tokens
 * are signed locally; room calls (the outbox worker's) are bounded by VIDEO_TIMEOUT_MS.
 */
export const createVideo = (
  config: VideoConfig,
): { tokens: VideoTokenIssuer; rooms: VideoRooms } | undefined =>
  config.video
    ? {
        tokens: createLiveKitTokens(config.video),
        rooms: createLiveKitRooms(config.video, { timeoutMs: config.timeouts.videoMs }),
      }
    : undefined;
