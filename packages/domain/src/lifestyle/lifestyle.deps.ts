import type { Clock } from "../shared/clock";
import type { IdGenerator } from "../shared/ids";
import type { UnitOfWork } from "../shared/unit-of-work";
import type { LifestyleRepositories, VideoTokenIssuer } from "./lifestyle.ports";

export type LifestyleDeps = {
  uow: UnitOfWork<LifestyleRepositories>;
  repos: LifestyleRepositories;
  clock: Clock;
  ids: IdGenerator;
  /** Undefined when no video service is configured (joins answer 503 video_unavailable). */
  video: VideoTokenIssuer | undefined;
};

/** CONTRACT.md §4: participant tokens live 10 minutes. */
export const PARTICIPANT_TOKEN_TTL_SECONDS = 600;

/** SPEC: GET /meetings lists at most 50. */
export const MEETINGS_PER_READ = 50;
