import { AppError } from "../common/app-error";

/** The meeting has ended: it can no longer be joined (422). */
export class MeetingEndedError extends AppError {
  constructor() {
    super("meeting_ended", "This meeting has ended.");
  }
}

/** No video service is configured (VIDEO_URL, VIDEO_API_KEY, VIDEO_API_SECRET): joins are 503. */
export class VideoUnavailableError extends AppError {
  constructor() {
    super("video_unavailable", "Video meetings are not available on this service.");
  }
}

/**
 * Thrown by the delivery of a meeting event in a process without a video service configured (an
 * API wrote the event with VIDEO_* set, a worker without them claimed it): the outbox retries it
 * and dead-letters it after ten failures, to be re-driven once the worker is configured.
 */
export class VideoRoomsUnavailableError extends Error {
  constructor() {
    super("no video service is configured in this process (VIDEO_URL, VIDEO_API_KEY, VIDEO_API_SECRET)");
    this.name = "VideoRoomsUnavailableError";
  }
}
