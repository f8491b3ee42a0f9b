import { operations } from "@agora/contracts/operations";

/**
 * The API's `METHOD /path` pairs, from the contracts' route table (the tests check that the app
 * serves and documents exactly these, and that there are 88).
 */
export const specRoutes: readonly string[] = operations.map(({ method, path }) => `${method} ${path}`);
