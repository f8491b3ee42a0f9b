// Load generator child: runs one autocannon measurement and prints the result as JSON. Runs in
// its own process so the runner can pin it to a different core than the server under test.
import { readFileSync } from "node:fs";
import autocannon from "autocannon";

type LoadSpec = {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Per-request bodies, one JSON string per line of this file; request i gets line bodiesStart + i. */
  bodiesFile?: string;
  bodiesStart?: number;
  /** Per-request header that must be unique (e.g. Idempotency-Key): a counter is appended. */
  uniqueHeader?: string;
  /** Headers that vary per request (e.g. one Authorization per reader): request i gets set i mod n. */
  headerSets?: Record<string, string>[];
  /** Paths taken in turn, one per request (e.g. many conversations); the url's path otherwise. */
  paths?: string[];
  /** The same, one path per line of this file. */
  pathsFile?: string;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
};

const spec = JSON.parse(process.argv[2] ?? "{}") as LoadSpec;
const bodies = spec.bodiesFile
  ? readFileSync(spec.bodiesFile, "utf8").split("\n").filter(Boolean)
  : undefined;
if (spec.pathsFile) {
  spec.paths = readFileSync(spec.pathsFile, "utf8").split("\n").filter(Boolean);
}
// Warm-up and measurement share one cursor, so no body is sent twice.
let cursor = spec.bodiesStart ?? 0;

const run = (durationSeconds: number) =>
  new Promise<autocannon.Result>((resolve, reject) => {
    let counter = 0;
    const requests: autocannon.Request[] | undefined =
      spec.uniqueHeader || bodies || spec.headerSets || spec.paths
        ? [
            {
              setupRequest: (request) => {
                counter += 1;
                const headers = {
                  ...request.headers,
                  ...(spec.headerSets ? spec.headerSets[counter % spec.headerSets.length] : {}),
                };
                if (spec.uniqueHeader) {
                  headers[spec.uniqueHeader] = `${process.pid}-${Date.now()}-${counter}`;
                }
                let body = request.body;
                if (bodies) {
                  body = bodies[cursor % bodies.length];
                  cursor += 1;
                }

                const path = spec.paths ? spec.paths[counter % spec.paths.length] : undefined;

                return {
                  ...request,
                  headers,
                  ...(body === undefined ? {} : { body }),
                  ...(path === undefined ? {} : { path }),
                };
              },
            },
          ]
        : undefined;
    autocannon(
      {
        url: spec.url,
        method: (spec.method ?? "GET") as autocannon.Request["method"],
        headers: spec.headers ?? {},
        ...(spec.body === undefined ? {} : { body: spec.body }),
        ...(requests ? { requests } : {}),
        connections: spec.connections,
        duration: durationSeconds,
        pipelining: 1,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });

if (spec.warmupSeconds > 0) {
  await run(spec.warmupSeconds);
}
const result = await run(spec.durationSeconds);
const statusCounts: Record<string, number> = {
  "2xx": result["2xx"],
  "3xx": result["3xx"],
  "4xx": result["4xx"],
  "5xx": result["5xx"],
  errors: result.errors,
  timeouts: result.timeouts,
};
process.stdout.write(
  `${JSON.stringify({
    requestsPerSecond: result.requests.average,
    totalRequests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statusCounts,
  })}\n`,
);
