import type { Area } from "../area";
import { systemDescriptions } from "./system.docs";
import { type SystemDeps, systemRoutes } from "./system.routes";

/** Liveness, readiness, metrics and the API's name. */
export const systemArea: Area<SystemDeps> = { routes: systemRoutes, descriptions: systemDescriptions };
