import type { AuditLog } from "../common/audit";
import type { Clock } from "../common/clock";
import type { IdGenerator } from "../common/ids";
import type { UnitOfWork } from "../common/unit-of-work";
import type { UserRepository } from "../identity/identity.ports";
import type { IdentityTransaction } from "../identity/identity.transaction";
import type { ObjectStore } from "../media/media.ports";
import type { FilterReportWriter } from "../moderation/content-filter.ports";
import type { ContentScreen } from "../moderation/content-filter-cache";
import type { OutboxWriter } from "../outbox/outbox.ports";
import type { CommunityRepositories } from "./community.ports";

export type CommunityDeps = {
  uow: UnitOfWork<
    CommunityRepositories &
      Pick<IdentityTransaction, "users" | "sessions" | "listings"> & {
        audit: AuditLog;
        outbox: OutboxWriter;
        filterReports: FilterReportWriter;
      }
  >;
  repos: CommunityRepositories & { users: Pick<UserRepository, "findById"> };
  clock: Clock;
  ids: IdGenerator;
  /** Confirms media uploads before a moment takes them. */
  objects: ObjectStore;
  /** The content filter rules (docs/safety.md, "Filters"): screenText before a write. */
  filters: ContentScreen;
};
