import { AppError } from "../shared/app-error";

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
