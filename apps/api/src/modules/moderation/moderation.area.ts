import type { ModerationDeps } from "@agora/domain/moderation/moderation.deps";
import type { Area } from "../area";
import { moderationDescriptions } from "./moderation.docs";
import { moderationAdminRoutes } from "./moderation.routes";

/** The content filters' administration (docs/safety.md, "Filters"). */
export const moderationArea: Area<{ moderation: ModerationDeps }> = {
  routes: (deps) => moderationAdminRoutes(deps),
  descriptions: moderationDescriptions,
};
