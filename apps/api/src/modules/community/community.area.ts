import type { CommunityDeps } from "@agora/domain/community/community.deps";
import type { Area } from "../area";
import { communityAdminRoutes } from "./community.admin.routes";
import { communityDescriptions } from "./community.docs";
import { communityRoutes } from "./community.routes";
import { ownContentDescriptions } from "./own-content.docs";
import { ownContentRoutes } from "./own-content.routes";
import { reportsDescriptions } from "./reports.docs";
import { reportsRoutes } from "./reports.routes";

/** Moments, comments, reports (of anything), blocks and mutes, an author's own changes, and the moderators' queue. */
export const communityArea: Area<{ community: CommunityDeps }> = {
  routes: (deps) => [
    ...communityRoutes(deps),
    ...ownContentRoutes(deps),
    ...communityAdminRoutes(deps),
    ...reportsRoutes(deps),
  ],
  descriptions: { ...communityDescriptions, ...ownContentDescriptions, ...reportsDescriptions },
};
