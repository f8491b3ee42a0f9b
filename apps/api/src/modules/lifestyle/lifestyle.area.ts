import { lifestyleOperations } from "@agora/contracts/lifestyle";
import type { LifestyleDeps } from "@agora/domain/lifestyle/lifestyle.deps";
import type { Area } from "../area";
import { lifestyleAdminRoutes } from "./lifestyle.admin.routes";
import { lifestyleDescriptions } from "./lifestyle.docs";
import { lifestyleRoutes } from "./lifestyle.routes";

/** Dating, curated content, announcements and meetings, and the administrators' announcements. */
export const lifestyleArea: Area<{ lifestyle: LifestyleDeps }> = {
  routes: (deps) => [...lifestyleRoutes(deps), ...lifestyleAdminRoutes(deps)],
  descriptions: lifestyleDescriptions,
  securityAfterTags: lifestyleOperations,
};
