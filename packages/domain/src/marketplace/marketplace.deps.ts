import type { ObjectStore } from "../media/media.ports";
import type { Clock } from "../shared/clock";
import type { IdGenerator } from "../shared/ids";
import type { UnitOfWork } from "../shared/unit-of-work";
import type { MarketplaceRepositories } from "./marketplace.ports";

export type MarketplaceDeps = {
  uow: UnitOfWork<MarketplaceRepositories>;
  repos: MarketplaceRepositories;
  clock: Clock;
  ids: IdGenerator;
  /** The object store: confirming gallery uploads, and the gallery's read URLs. */
  objects: ObjectStore;
};
