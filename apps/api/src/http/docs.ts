import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Hono } from "hono";
import type { AppEnv } from "./app-env";

export const DOCS_PATH = "/docs";
export const DOCS_SCRIPT_PATH = "/docs/scalar.js";

/**
 * What the reference page may load: its own script and the document, from this origin only.
 * Scalar (Vue) injects its styles at run time, hence 'unsafe-inline' for styles alone; nothing
 * else is allowed (no inline or remote script, no remote fonts, images or connections).
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Where the build copies Scalar's bundle (tsup.config.ts), beside the bundled server code. */
const SCALAR_BUNDLE_FILE = "scalar-standalone.js";

/** The bundle in the installed package; its exports do not name the file: it sits beside the entry. */
const installedScalarBundle = () =>
  join(dirname(createRequire(import.meta.url).resolve("@scalar/api-reference")), "browser", "standalone.js");

/**
 * Scalar's browser bundle (@scalar/api-reference's dist/browser/standalone.js, one self-contained
 * file), read and gzipped once on first use: the copy the build put in dist/ (a production tree
 * holds no @scalar package), else, running from source, the installed package's own file.
 */
const loadBundle = (() => {
  let bundle: { raw: Buffer; gzip: Buffer } | undefined;

  return () => {
    if (!bundle) {
      const built = new URL(`./${SCALAR_BUNDLE_FILE}`, import.meta.url);
      const raw = existsSync(built) ? readFileSync(built) : readFileSync(installedScalarBundle());
      bundle = { raw, gzip: gzipSync(raw) };
    }

    return bundle;
  };
})();

const escapeAttribute = (value: string) =>
  value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

const page = (documentUrl: string, title: string) => {
  // Read by the bundle from the element's data attributes: no inline script, so the CSP needs none.
  // Nothing may leave the page: Scalar's default fonts (its CDN), telemetry, and its hosted AI agent
  // and MCP generator (which would send the document to Scalar) are off.
  const configuration = JSON.stringify({
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: "never",
  });

  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeAttribute(title)}</title>
  </head>
  <body>
    <script id="api-reference" type="application/json" data-url="${escapeAttribute(documentUrl)}" data-configuration="${escapeAttribute(configuration)}"></script>
    <script src="${DOCS_SCRIPT_PATH}"></script>
  </body>
</html>
`;
};

/**
 * `GET /docs`: the Scalar API reference for `documentUrl`, served entirely by this process (page
 * and script), so it works offline and behind a strict CSP. `GET /docs/scalar.js` is the bundle.
 */
export const mountDocs = (app: Hono<AppEnv>, documentUrl: string, title: string) => {
  const html = page(documentUrl, title);
  app.get(DOCS_PATH, (c) => c.html(html, 200, { "content-security-policy": DOCS_CONTENT_SECURITY_POLICY }));
  app.get(DOCS_SCRIPT_PATH, (c) => {
    const { raw, gzip } = loadBundle();
    const gzipped = /\bgzip\b/.test(c.req.header("accept-encoding") ?? "");
    const body = new Uint8Array(gzipped ? gzip : raw);

    return c.body(body, 200, {
      "content-type": "text/javascript; charset=utf-8",
      // Changes only with the installed package (a deploy); an hour keeps a reload cheap.
      "cache-control": "public, max-age=3600",
      vary: "accept-encoding",
      ...(gzipped ? { "content-encoding": "gzip" } : {}),
    });
  });
};
