import { operations } from "@agora/contracts/operations";

/**
 * The API's `METHOD /path` pairs, from the contracts' route table (the tests check that the app
 * serves and documents exactly these, and that there are 89: the specification's 88 and the guest receipts' unsubscribe).
 */
export const specRoutes: readonly string[] = operations.map(({ method, path }) => `${method} ${path}`);
