import type { Logger } from "pino";

/** Per-request values middleware puts on the Hono context. */
export type AppVariables = {
  requestId: string;
  logger: Logger;
};

export type AppEnv = { Variables: AppVariables };
