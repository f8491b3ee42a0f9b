// What a measured scenario is (scenarios.ts lists them; admin.ts, chat.ts, inbox.ts and varied.ts
// add theirs) and the context its hooks get. Apart from scenarios.ts so the scenario files name
// these types without importing the list that imports them (no import circle).
export type BenchContext = {
  apiUrl: string;
  referenceUrl: string;
  databaseUrl: string;
  /** The TOKEN_SECRET both servers run with (the bench mints access tokens for many users). */
  tokenSecret: string;
  /**
   * Starts one more API process on the same database (WORKER=off, plus `env`); stopped by the
   * returned stop(), or when the run ends.
   */
  startApi(env?: Record<string, string>): Promise<{ url: string; stop(): Promise<void> }>;
};

export type RequestSpec = {
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** One body per request, never repeated across runs (e.g. single-use refresh tokens). */
  bodies?: string[];
  uniqueHeader?: string;
  /** Headers that vary per request, in turn (e.g. one Authorization per reader). */
  headerSets?: Record<string, string>[];
  /** Paths taken in turn, one per request. */
  paths?: string[];
  /** Like `paths`, one per line of this file (for lists too long for a command line). */
  pathsFile?: string;
  /** The Agora server this scenario measures, when not the main one (e.g. one started with other settings). */
  apiUrl?: string;
};

export type Scenario = {
  name: string;
  request: RequestSpec;
  /** Path on the reference server; false = no reference for this scenario. */
  reference?: string | false;
  connections: number[];
  prepare?: (context: BenchContext) => Promise<Partial<RequestSpec>>;
  /** After the scenario's runs: a line for the report (e.g. outbox lag measured over them). */
  report?: (context: BenchContext, window: { from: Date; to: Date }) => Promise<string>;
};
