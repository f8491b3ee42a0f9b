import type { AuditLog } from "../common/audit";
import type { Clock } from "../common/clock";
import type { UnitOfWork } from "../common/unit-of-work";
import type { IdentityRepositories } from "../identity/identity.ports";
import type { MarketplaceRepositories } from "../marketplace/marketplace.transaction";
import type { AdministrationRepositories } from "./administration.ports";

export type AdministrationDeps = {
  uow: UnitOfWork<AdministrationRepositories & Pick<IdentityRepositories, "users"> & { audit: AuditLog }>;
  repos: AdministrationRepositories &
    Pick<IdentityRepositories, "users"> &
    Pick<MarketplaceRepositories, "catalog">;
  clock: Clock;
};

/** The reporting summary covers the last 30 days. */
export const REPORTS_WINDOW_MS = 30 * 24 * 3600_000;
