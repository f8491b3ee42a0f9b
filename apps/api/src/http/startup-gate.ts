import type { ErrorEnvelope } from "@agora/contracts/envelope";

/** What answers without the database while the process starts: liveness, metrics, the documents. */
export const servedWhileStarting = new Set([
  "/health",
  "/metrics",
  "/api/v1",
  "/api/v1/openapi.json",
  "/docs",
]);

/**
 * Between `listen` and the database being reachable (and, for `pnpm start`, migrated), the process
 * is alive but not ready. The gate answers for it: `/ready` is 503 naming the database, anything
 * that would need the database is 503 `service_unavailable` with `Retry-After`, and liveness,
 * metrics and the API documents are served. Once opened it stays open: a later outage is the
 * requests' own 503 (DatabaseUnavailableError) and `/ready`'s probe.
 */
export type StartupGate = {
  readonly isOpen: boolean;
  open(): void;
  /** The answer while closed; undefined = let the app handle the request. */
  answer(method: string, path: string, requestId: string): Response | undefined;
};

const envelope = (requestId: string, message: string, details?: ErrorEnvelope["error"]["details"]) =>
  JSON.stringify({
    success: false,
    data: null,
    meta: null,
    error: { code: "service_unavailable", message, ...(details ? { details } : {}) },
    request_id: requestId,
  } satisfies ErrorEnvelope);

export const createStartupGate = (): StartupGate => {
  let isOpen = false;

  return {
    get isOpen() {
      return isOpen;
    },
    open() {
      isOpen = true;
    },
    answer(method, path, requestId) {
      if (isOpen || ((method === "GET" || method === "HEAD") && servedWhileStarting.has(path))) {
        return undefined;
      }
      const body =
        path === "/ready"
          ? envelope(requestId, "Not ready: database unavailable.", [
              { path: "database", message: "unavailable" },
            ])
          : envelope(requestId, "The service is starting; try again shortly.");

      // The request handler adds X-Request-Id and the security headers.
      return new Response(body, {
        status: 503,
        headers: { "content-type": "application/json", "retry-after": "1" },
      });
    },
  };
};
