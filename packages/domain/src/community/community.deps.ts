import type { IdentityTransaction, UserRepository } from "../identity/identity.ports";
import type { ObjectStore } from "../media/media.ports";
import type { OutboxWriter } from "../outbox/outbox.ports";
import type { AuditLog } from "../shared/audit";
import type { Clock } from "../shared/clock";
import type { IdGenerator } from "../shared/ids";
import type { UnitOfWork } from "../shared/unit-of-work";
import type { CommunityRepositories } from "./community.ports";

export type CommunityDeps = {
  uow: UnitOfWork<
    CommunityRepositories &
      Pick<IdentityTransaction, "users" | "sessions" | "listings"> & { audit: AuditLog; outbox: OutboxWriter }
  >;
  repos: CommunityRepositories & { users: Pick<UserRepository, "findById"> };
  clock: Clock;
  ids: IdGenerator;
  /** Confirms media uploads before a moment takes them. */
  objects: ObjectStore;
};
