import type { Area } from "../area";
import { identityAdminKinds, identityAdminRoutes } from "./identity.admin.routes";
import { identityDescriptions } from "./identity.docs";
import { type IdentityRoutesDeps, identityRoutes } from "./identity.routes";

/** Accounts and sessions, and the administrators' role changes. */
export const identityArea: Area<IdentityRoutesDeps> = {
  routes: (deps) => [...identityRoutes(deps), ...identityAdminRoutes(deps)],
  adminKinds: identityAdminKinds,
  descriptions: identityDescriptions,
};
