import type { Clock } from "../common/clock";
import type { IdGenerator } from "../common/ids";
import type { UnitOfWork } from "../common/unit-of-work";
import type { ObjectStore } from "../media/media.ports";
import type { MarketplaceRepositories } from "./marketplace.transaction";

export type MarketplaceDeps = {
  uow: UnitOfWork<MarketplaceRepositories>;
  repos: MarketplaceRepositories;
  clock: Clock;
  ids: IdGenerator;
  /** The object store: confirming gallery uploads, and the gallery's read URLs. */
  objects: ObjectStore;
};
