import type { CommunityDeps } from "@agora/domain/community/community.deps";
import type { Area } from "../area";
import { communityAdminRoutes } from "./community.admin.routes";
import { communityDescriptions } from "./community.docs";
import { communityRoutes } from "./community.routes";

/** Moments, comments, reports and blocks, and the moderators' queue. */
export const communityArea: Area<{ community: CommunityDeps }> = {
  routes: (deps) => [...communityRoutes(deps), ...communityAdminRoutes(deps)],
  descriptions: communityDescriptions,
};
