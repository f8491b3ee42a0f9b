import type { AuditLog } from "../common/audit";
import type { Clock } from "../common/clock";
import type { IdGenerator } from "../common/ids";
import type { UnitOfWork } from "../common/unit-of-work";
import type { ContentFilterRepository } from "./content-filter.ports";
import type { ContentScreen } from "./content-filter-cache";

/** What the content filters' administration needs. */
export type ModerationDeps = {
  uow: UnitOfWork<{ contentFilters: ContentFilterRepository; audit: AuditLog }>;
  repos: { contentFilters: ContentFilterRepository };
  clock: Clock;
  ids: IdGenerator;
  /** This process's rule cache, forgotten after each change so it applies here at once. */
  filters: ContentScreen;
};
