import type { Clock } from "../shared/clock";
import type { IdGenerator } from "../shared/ids";
import type { MediaRepositories, ObjectStore } from "./media.ports";

export type MediaDeps = {
  repos: MediaRepositories;
  clock: Clock;
  ids: IdGenerator;
  /** The object store; without configuration its adapter refuses every call (503 storage_unavailable). */
  objects: ObjectStore;
};
