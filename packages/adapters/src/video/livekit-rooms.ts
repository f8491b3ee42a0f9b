import type { VideoRooms } from "@agora/domain/lifestyle/lifestyle.ports";
import { withDeadline } from "../deadline";
import { loadOnce } from "../lazy";

/** The SDK (megabytes of modules) is loaded at the first room call. */
const sdk = loadOnce(() => import("livekit-server-sdk"));

/**
 * The address of a LiveKit server's API (RoomService, over Twirp) from the address clients
 * connect to: `wss://` becomes `https://` and `ws://` becomes `http://`, same host and port.
 */
export const roomServiceAddress = (videoUrl: string): string => {
  const url = new URL(videoUrl);
  if (url.protocol === "wss:") {
    url.protocol = "https:";
  } else if (url.protocol === "ws:") {
    url.protocol = "http:";
  }

  return url.origin;
};

/** A room call that failed: the call, and the service's answer or the transport's error (never a secret). */
export class VideoServiceError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "VideoServiceError";
  }
}

/** The service answered that the room, or the participant, is not there: nothing left to do. */
const isGone = (error: unknown): boolean =>
  typeof error === "object" &&
  error !== null &&
  ((error as { code?: unknown }).code === "not_found" || (error as { status?: unknown }).status === 404);

/** The answer's status and message, or the transport's error with its cause's code (ECONNREFUSED…). */
const describe = (error: unknown): string => {
  if (!(error instanceof Error)) {
    return String(error);
  }
  const status = (error as { status?: unknown }).status;
  if (typeof status === "number") {
    return `HTTP ${status}: ${error.message}`;
  }
  const cause = (error.cause as { code?: unknown } | undefined)?.code;

  return typeof cause === "string" ? `${error.message} (${cause})` : error.message;
};

/**
 * Room management on a LiveKit-compatible video service through `livekit-server-sdk`'s
 * `RoomServiceClient`, which signs each call with the API key and secret (`roomCreate` for
 * DeleteRoom, `roomAdmin` on the room for RemoveParticipant). One attempt per call, bounded by
 * `timeoutMs` (VIDEO_TIMEOUT_MS) as a whole: the SDK's own region failover is off, and retries are
 * the outbox's (backoff, dead letter after ten failures).
 */
export const createLiveKitRooms = (
  video: { url: string; apiKey: string; apiSecret: string },
  { timeoutMs }: { timeoutMs: number },
): VideoRooms => {
  const client = loadOnce(async () => {
    const { RoomServiceClient } = await sdk();

    return new RoomServiceClient(roomServiceAddress(video.url), video.apiKey, video.apiSecret, {
      // The deadline below bounds the call; the SDK's own timeout (a second later) aborts the
      // request it leaves behind, so a hanging service holds no socket for long.
      requestTimeout: timeoutMs / 1000 + 1,
      failover: false,
    });
  });
  const call = async (name: string, work: () => Promise<void>): Promise<void> => {
    try {
      await withDeadline(
        work(),
        timeoutMs,
        () => new VideoServiceError(`${name}: no answer within ${timeoutMs} ms`),
      );
    } catch (error) {
      if (error instanceof VideoServiceError) {
        throw error;
      }
      if (isGone(error)) {
        return;
      }
      throw new VideoServiceError(`${name} failed: ${describe(error)}`, { cause: error });
    }
  };

  return {
    deleteRoom: (room) => call("DeleteRoom", async () => (await client()).deleteRoom(room)),
    removeParticipant: (room, identity) =>
      call("RemoveParticipant", async () => (await client()).removeParticipant(room, identity)),
  };
};
