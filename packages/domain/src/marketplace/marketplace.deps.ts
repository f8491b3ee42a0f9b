import type { Clock } from "../common/clock";
import type { IdGenerator } from "../common/ids";
import type { UnitOfWork } from "../common/unit-of-work";
import type { ObjectStore } from "../media/media.ports";
import type { FilterReportWriter } from "../moderation/content-filter.ports";
import type { ContentScreen } from "../moderation/content-filter-cache";
import type { MarketplaceRepositories } from "./marketplace.transaction";

export type MarketplaceDeps = {
  uow: UnitOfWork<MarketplaceRepositories & { filterReports: FilterReportWriter }>;
  repos: MarketplaceRepositories;
  clock: Clock;
  ids: IdGenerator;
  /** The object store: confirming gallery uploads, and the gallery's read URLs. */
  objects: ObjectStore;
  /** The content filter rules (docs/safety.md, "Filters"): screenText before a write. */
  filters: ContentScreen;
};
