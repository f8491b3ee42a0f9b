import type { UserRepository } from "../identity/identity.ports";
import type { Clock } from "../shared/clock";
import type { CommunityRepositories } from "./community.ports";

export type CommunityDeps = {
  repos: CommunityRepositories & { users: Pick<UserRepository, "findById"> };
  clock: Clock;
};
