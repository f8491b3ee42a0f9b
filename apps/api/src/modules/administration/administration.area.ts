import type { AdministrationDeps } from "@agora/domain/administration/administration.deps";
import type { Area } from "../area";
import { administrationDescriptions } from "./administration.docs";
import { administrationAdminKinds, administrationRoutes } from "./administration.routes";

/** What belongs to no single area, and the `{kind}` operations every area's kinds plug into. */
export const administrationArea: Area<{ administration: AdministrationDeps }> = {
  routes: administrationRoutes,
  adminKinds: administrationAdminKinds,
  descriptions: administrationDescriptions,
};
