import type { UserRepository } from "../identity/identity.ports";
import type { ObjectStore } from "../media/media.ports";
import type { Clock } from "../shared/clock";
import type { IdGenerator } from "../shared/ids";
import type { UnitOfWork } from "../shared/unit-of-work";
import type { CommunityRepositories } from "./community.ports";

export type CommunityDeps = {
  uow: UnitOfWork<CommunityRepositories>;
  repos: CommunityRepositories & { users: Pick<UserRepository, "findById"> };
  clock: Clock;
  ids: IdGenerator;
  /** Confirms media uploads before a moment takes them. */
  objects: ObjectStore;
};
