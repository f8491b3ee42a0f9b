import type { Operation } from "./operation";
import { systemOperations } from "./system";

/**
 * Every operation of the API (member and admin surfaces), in the order the OpenAPI document lists
 * them: the one route table the server mounts and the tests enumerate. Not for the mobile app: it
 * holds the admin operations too (use `@agora/contracts/client`).
 */
export const operations: readonly Operation[] = [...Object.values(systemOperations)];
