import type { Clock } from "../common/clock";
import type { IdGenerator } from "../common/ids";
import type { UnitOfWork } from "../common/unit-of-work";
import type { ObjectStore } from "../media/media.ports";
import type { FilterReportWriter } from "../moderation/content-filter.ports";
import type { ContentScreen } from "../moderation/content-filter-cache";
import { VideoRoomsUnavailableError } from "./lifestyle.errors";
import type {
  LifestyleRepositories,
  MeetingRepository,
  VideoRooms,
  VideoTokenIssuer,
} from "./lifestyle.ports";

export type LifestyleDeps = {
  uow: UnitOfWork<LifestyleRepositories & { filterReports: FilterReportWriter }>;
  repos: LifestyleRepositories;
  clock: Clock;
  ids: IdGenerator;
  /** The object store: confirming dating photo uploads, and the photos' read URLs. */
  objects: ObjectStore;
  /**
   * Undefined when no video service is configured: joins answer 503 video_unavailable, and end
   * and leave change the rows only (no outbox event for the video service is written).
   */
  video: VideoTokenIssuer | undefined;
  /** The content filter rules (docs/safety.md, "Filters"): screenText before a write. */
  filters: ContentScreen;
};

/** What delivering the meeting events needs (the outbox worker's side). */
export type MeetingRoomDeps = {
  /** Undefined when the delivering process has no video service configured. */
  video: VideoRooms | undefined;
  meetings: Pick<MeetingRepository, "isParticipating">;
};

/** The video service's rooms, or a failure the outbox retries (and dead-letters after ten). */
export const requireVideoRooms = (video: VideoRooms | undefined): VideoRooms => {
  if (!video) {
    throw new VideoRoomsUnavailableError();
  }

  return video;
};

/** Participant tokens live at most 10 minutes (the join's documented lifetime). */
export const PARTICIPANT_TOKEN_TTL_SECONDS = 600;

/** GET /meetings lists at most 50. */
export const MEETINGS_PER_READ = 50;

/** A private meeting names at most 100 invitees (the create request's bound). */
export const MEETING_INVITEES_MAX = 100;
