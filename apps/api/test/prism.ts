// Stoplight Prism's validating proxy (`prism proxy --errors=false`) in front of a listening server:
// a checker of the served OpenAPI document that no one here wrote. Prism loads the document the
// server serves, forwards every request unchanged, validates the request and the response against
// the operation they match, and reports what breaks it in an `sl-violations` response header (and
// its log) without changing the answer.
//
// A request the test sends invalid on purpose is a request violation and expected. A response
// violation (the server answered something its own document does not allow) is a failure, and so
// is a request that matches no operation (its answer could not be checked).
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@agora/testing/processes";

export type Violation = {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
};

/** One response that came back through Prism with the violations Prism found in it. */
export type Checked = { method: string; path: string; status: number; violations: Violation[] };

export type PrismProxy = {
  /** Prism's address (http://127.0.0.1:PORT). */
  url: string;
  /**
   * A fetch that sends every request for `upstream` through Prism instead (any other address is
   * fetched as it is) and records what Prism reported.
   */
  fetchThrough(fetchDirect: typeof fetch): typeof fetch;
  /** Every response seen through `fetchThrough`. */
  checked(): Checked[];
  /** What breaks the document: response violations and requests no operation matched. */
  failures(): string[];
  /** Throws with every failure listed (the assertion the suites end with). */
  assertNoFailures(): void;
  close(): Promise<void>;
};

const prismCli = () =>
  path.join(
    path.dirname(fileURLToPath(import.meta.resolve("@stoplight/prism-cli/package.json"))),
    "dist",
    "index.js",
  );

const NO_OPERATION = "Selected route not found";

/**
 * Starts Prism in front of `upstream` with the document `upstream` serves, and resolves once it
 * listens.
 */
export const startPrism = async (
  upstream: string,
  documentPath = "/api/v1/openapi.json",
): Promise<PrismProxy> => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    process.execPath,
    [
      prismCli(),
      "proxy",
      `${upstream}${documentPath}`,
      upstream,
      "--errors=false",
      // Headers as the server sent them: no CORS headers added.
      "--cors=false",
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
    ],
    {
      env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let pending = "";
  const logged: string[] = [];
  const onOutput = (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    // Only what matters is kept: Prism logs several lines per request.
    logged.push(...lines.filter((line) => /Violation:|listening on|error/i.test(line)));
  };
  child.stdout?.on("data", onOutput);
  child.stderr?.on("data", onOutput);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  const deadline = Date.now() + 120_000;
  while (!logged.some((line) => line.includes(`listening on ${url}`))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`Prism did not start (exit ${child.exitCode}):\n${logged.join("\n")}\n${pending}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  const checked: Checked[] = [];
  const failures = () => [
    ...checked.flatMap(({ method, path: target, status, violations }) =>
      violations
        .filter((violation) => violation.location[0] === "response" || violation.message === NO_OPERATION)
        .map(
          (violation) =>
            `${method} ${target} → ${status}: ${violation.location.join(".")}: ${violation.message}`,
        ),
    ),
    // The log as a second witness (a response that came back without the header, say).
    ...logged.filter((line) => /Violation: response/.test(line)).map((line) => `Prism's log: ${line.trim()}`),
  ];

  return {
    url,
    fetchThrough: (fetchDirect) => async (input, init) => {
      const href = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      if (!href.startsWith(`${upstream}/`)) {
        return fetchDirect(input, init);
      }
      const target = href.slice(upstream.length);
      let sent: RequestInit | undefined = init;
      if (input instanceof Request) {
        const hasBody = input.method !== "GET" && input.method !== "HEAD";
        sent = {
          method: input.method,
          headers: input.headers,
          signal: input.signal,
          ...(hasBody ? { body: await input.arrayBuffer() } : {}),
          ...init,
        };
      }
      const response = await fetchDirect(`${url}${target}`, sent);
      const header = response.headers.get("sl-violations");
      checked.push({
        method: (sent?.method ?? "GET").toUpperCase(),
        path: target,
        status: response.status,
        violations: header ? (JSON.parse(header) as Violation[]) : [],
      });

      return response;
    },
    checked: () => [...checked],
    failures,
    assertNoFailures: () => {
      const found = failures();
      if (found.length > 0) {
        throw new Error(`the served OpenAPI document does not allow these answers:\n${found.join("\n")}`);
      }
    },
    close: async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
};
