import type { MediaDeps } from "@agora/domain/media/media.deps";
import type { Area } from "../area";
import { mediaDescriptions } from "./media.docs";
import { mediaRoutes } from "./media.routes";

/** Uploads and read URLs of media assets. */
export const mediaArea: Area<{ media: MediaDeps }> = { routes: mediaRoutes, descriptions: mediaDescriptions };
