import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";

/**
 * The security headers hono's secure-headers middleware sets, computed once at start-up by running
 * it against a probe request. Every response then carries the same list (http/respond.ts, and
 * http/handler.ts for responses built elsewhere) without the per-request cost of the middleware
 * itself, which rebuilds a Headers object for each response. Configure them here, through hono's
 * options.
 */
export const computeSecurityHeaders = async (): Promise<Array<readonly [string, string]>> => {
  const probe = new Hono()
    .use(
      secureHeaders({
        // Kept: HSTS, nosniff, frame denial, referrer and cross-origin isolation. Dropped: headers
        // for legacy browsers (IE's X-Download-Options, the XSS auditor), Flash/PDF policy files and
        // HTML-document hints; each header is work on every response of a JSON API.
        xDownloadOptions: false,
        xXssProtection: false,
        xPermittedCrossDomainPolicies: false,
        xDnsPrefetchControl: false,
        originAgentCluster: false,
      }),
    )
    .get("/", (c) => c.body(null, 204));
  const response = await probe.request("/");
  const headers: Array<readonly [string, string]> = [];
  response.headers.forEach((value, name) => {
    if (name !== "content-type") {
      headers.push([name, value] as const);
    }
  });
  // Responses carry tokens, guest capabilities and personal data: no cache (browser, proxy, CDN)
  // may keep them. Nothing this service serves is meant to be cached.
  headers.push(["cache-control", "no-store"] as const);

  return headers;
};

export const securityHeaders = await computeSecurityHeaders();
