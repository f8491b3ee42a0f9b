import { errorCodes } from "@agora/contracts/errors";
import type { FuzzRequest, Operation } from "./requests";

// What an internal detail looks like in a body: stack frames, SQL, driver and ORM messages.
const leakPatterns: [string, RegExp][] = [
  ["stack frame", /\bat \S+ \(?\S+\.(ts|js|mjs):\d+/],
  ["file path", /\/(work|home|app|src|node_modules)\/\S+\.(ts|js)/],
  // Our SQL is written in capitals; data echoing a user's lower-case prose is not a leak.
  ["SQL", /\b(SELECT\s[^"]{0,200}\bFROM|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b/],
  [
    "PostgreSQL error",
    /\b(syntax error at or near|violates (unique|foreign key|check|not-null) constraint|duplicate key value|invalid input syntax for type|relation "[^"]+" does not exist|column "[^"]+" does not exist|out of range for type|invalid byte sequence|SQLSTATE)\b/i,
  ],
  ["driver error", /\b(ECONNREFUSED|ECONNRESET|PrismaClient|node-postgres|pg-pool|PGlite)\b/],
  ["password hash", /\$argon2(id|i|d)\$/],
];

const envelopeKeys = ["data", "error", "meta", "request_id", "success"].join(",");
const knownCodes = new Set<string>(errorCodes);

/** Routes that answer something other than the JSON envelope by design. */
const nonEnvelopePaths = new Set(["/metrics", "/docs", "/api/v1/admin/exports/reports.csv"]);

/**
 * Problems with one response (empty = fine): a 5xx, a body that is not the envelope, `success`
 * that contradicts the status, an unknown error code, or an internal detail or secret in the body
 * that the request did not itself contain.
 */
export const responseProblems = (
  request: FuzzRequest,
  response: { status: number; headers: Headers; text: string },
  secrets: string[],
): string[] => {
  const problems: string[] = [];
  const { status, text } = response;
  if (status >= 500) {
    problems.push(`status ${status}`);
  }
  const path = request.url.split("?")[0] ?? "";
  const requestText = `${request.url} ${JSON.stringify(request.headers)} ${request.body ?? ""}`;
  for (const [what, pattern] of leakPatterns) {
    if (pattern.test(text) && !pattern.test(requestText)) {
      problems.push(`leaks ${what}: ${text.match(pattern)?.[0]}`);
    }
  }
  for (const secret of secrets) {
    if (secret && text.includes(secret) && !requestText.includes(secret)) {
      problems.push("leaks a secret");
    }
  }
  if (request.method === "HEAD" || status === 204 || (nonEnvelopePaths.has(path) && status < 400)) {
    return problems;
  }
  let envelope: Record<string, unknown>;
  try {
    envelope = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return [...problems, `body is not JSON: ${JSON.stringify(text.slice(0, 200))}`];
  }
  if (typeof envelope !== "object" || envelope === null || Array.isArray(envelope)) {
    return [...problems, "body is not an object"];
  }
  if (Object.keys(envelope).sort().join(",") !== envelopeKeys) {
    problems.push(`envelope keys are ${Object.keys(envelope).sort().join(",")}`);
  }
  if (envelope.success !== status < 400) {
    problems.push(`success ${String(envelope.success)} with status ${status}`);
  }
  const requestId = response.headers.get("x-request-id");
  if (!requestId || envelope.request_id !== requestId) {
    problems.push("request_id missing or not the X-Request-Id header");
  }
  if (status >= 400) {
    const error = envelope.error as { code?: unknown; message?: unknown } | null;
    if (envelope.data !== null || envelope.meta !== null) {
      problems.push("an error with data or meta");
    }
    if (
      !error ||
      typeof error.code !== "string" ||
      !knownCodes.has(error.code) ||
      typeof error.message !== "string"
    ) {
      problems.push(
        `error is not { code, message } with a known code: ${JSON.stringify(error).slice(0, 200)}`,
      );
    }
  } else if (envelope.error !== null) {
    problems.push("a success with an error");
  }

  return problems;
};

/**
 * An error the document does not promise (undefined = documented): a request with the operation's
 * own method that answers 4xx/5xx must answer a status the operation documents, with one of the
 * `error.code` values listed for it. 405 (another method) is app-wide and documented once.
 */
export const undocumentedError = (
  op: Operation,
  request: FuzzRequest,
  response: { status: number; text: string },
): string | undefined => {
  if (request.method !== op.method || response.status < 400 || response.status === 405) {
    return undefined;
  }
  let code: unknown;
  try {
    code = (JSON.parse(response.text) as { error?: { code?: unknown } }).error?.code;
  } catch {
    return undefined; // not JSON: responseProblems reports it
  }
  const codes = op.errorCodes[String(response.status)];
  if (!codes) {
    return `${response.status} ${String(code)} is not documented for ${op.method} ${op.path}`;
  }
  if (typeof code !== "string" || !codes.includes(code)) {
    return `${String(code)} is not among the documented ${response.status} codes of ${op.method} ${op.path} (${codes.join(", ")})`;
  }

  return undefined;
};
