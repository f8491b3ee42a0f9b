import type { CommunityDeps } from "@agora/domain/community/community.deps";
import type { Area } from "../area";
import { communityAdminRoutes } from "./community.admin.routes";
import { communityDescriptions } from "./community.docs";
import { communityRoutes } from "./community.routes";
import { reportsDescriptions } from "./reports.docs";
import { reportsRoutes } from "./reports.routes";

/** Moments, comments, reports (of anything) and blocks, and the moderators' queue. */
export const communityArea: Area<{ community: CommunityDeps }> = {
  routes: (deps) => [...communityRoutes(deps), ...communityAdminRoutes(deps), ...reportsRoutes(deps)],
  descriptions: { ...communityDescriptions, ...reportsDescriptions },
};
