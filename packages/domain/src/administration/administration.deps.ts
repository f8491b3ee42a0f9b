import type { IdentityRepositories } from "../identity/identity.ports";
import type { MarketplaceRepositories } from "../marketplace/marketplace.ports";
import type { AuditLog } from "../shared/audit";
import type { Clock } from "../shared/clock";
import type { UnitOfWork } from "../shared/unit-of-work";
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
