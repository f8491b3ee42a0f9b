// The measured scenarios. Each names the request to Agora and, when it differs, the path the
// reference server answers the same way. `prepare` may create data and return per-run request
// settings (headers, bodies) once the servers are up.

export type BenchContext = { apiUrl: string; referenceUrl: string; databaseUrl: string };

export type RequestSpec = {
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  bodies?: string[];
  uniqueHeader?: string;
};

export type Scenario = {
  name: string;
  request: RequestSpec;
  reference?: string;
  connections: number[];
  prepare?: (context: BenchContext) => Promise<Partial<RequestSpec>>;
};

export const scenarios: Scenario[] = [
  { name: "GET /health", request: { path: "/health" }, connections: [50] },
  { name: "GET /api/v1", request: { path: "/api/v1" }, connections: [50] },
];
