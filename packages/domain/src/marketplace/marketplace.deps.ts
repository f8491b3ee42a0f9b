import type { Clock } from "../common/clock";
import type { IdGenerator } from "../common/ids";
import type { UnitOfWork } from "../common/unit-of-work";
import type { ObjectStore } from "../media/media.ports";
import type { MarketplaceRepositories } from "./marketplace.transaction";
import type { ContentScreen } from "../moderation/content-filter-cache";
import type { FilterReportWriter } from "../moderation/content-filter.ports";

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
