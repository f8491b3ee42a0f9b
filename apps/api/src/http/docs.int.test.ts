// /docs in a real browser (headless Chromium driven by playwright-core), offline: every request to
// another origin is aborted and recorded, and the reference must render the operations from this
// server alone, without a Content-Security-Policy violation. Chromium comes from the OS (Debian's
// `chromium`; CHROMIUM_PATH overrides); where there is none the test says so and skips.
import { existsSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../test/harness";
import { OPENAPI_PATH } from "../app";
import { drain, listen } from "../server";
import { DOCS_CONTENT_SECURITY_POLICY, DOCS_SCRIPT_PATH } from "./docs";

const executablePath = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
  (candidate): candidate is string => candidate !== undefined && candidate !== "" && existsSync(candidate),
);
if (!executablePath) {
  process.stdout.write(
    "docs browser test skipped: no Chromium (apt-get install chromium, or set CHROMIUM_PATH)\n",
  );
}

describe("GET /docs", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness({ seed: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("serves the page with a strict CSP, and the installed Scalar bundle from this server", async () => {
    const page = await h.get("/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toBe(DOCS_CONTENT_SECURITY_POLICY);
    expect(page.text).toContain(`data-url="${OPENAPI_PATH}"`);
    expect(page.text).toContain(`<script src="${DOCS_SCRIPT_PATH}"></script>`);
    expect(page.text).not.toMatch(/https?:\/\//);

    const script = await h.fetch(DOCS_SCRIPT_PATH, { headers: { "accept-encoding": "identity" } });
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toContain("javascript");
    expect((await script.text()).length).toBeGreaterThan(1_000_000);
    const gzipped = await h.fetch(DOCS_SCRIPT_PATH, { headers: { "accept-encoding": "gzip, br" } });
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
  });

  describe.skipIf(!executablePath)("in headless Chromium with every other origin blocked", () => {
    let server: Server;
    let origin: string;
    let browser: Browser;

    beforeAll(async () => {
      server = await listen(h.handler, { host: "127.0.0.1", port: 0 }, h.runtime.logger);
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      browser = await chromium.launch({
        executablePath,
        // Root in a container has no user namespace for Chromium's sandbox.
        args: ["--no-sandbox", "--disable-dev-shm-usage"],
      });
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      if (server) {
        await drain(server, 1_000);
      }
    });

    it("renders the operations without reaching any other origin or breaking the CSP", async () => {
      const context = await browser.newContext();
      const elsewhere: string[] = [];
      await context.route("**/*", (route) => {
        const url = route.request().url();
        if (url.startsWith(`${origin}/`) || url.startsWith("data:") || url.startsWith("blob:")) {
          return route.continue();
        }
        elsewhere.push(url);

        return route.abort("blockedbyclient");
      });
      const page = await context.newPage();
      // Runs in the page (the test's tsconfig has no DOM types, hence the loose typing).
      await page.addInitScript(() => {
        const seen: string[] = [];
        const scope = globalThis as unknown as {
          cspViolations: string[];
          document: {
            addEventListener(type: string, listener: (event: Record<string, string>) => void): void;
          };
        };
        scope.cspViolations = seen;
        scope.document.addEventListener("securitypolicyviolation", (event) => {
          seen.push(`${event.violatedDirective} ${event.blockedURI}`);
        });
      });
      const pageErrors: string[] = [];
      page.on("pageerror", (error) => pageErrors.push(error.message));

      const response = await page.goto(`${origin}/docs`, { waitUntil: "load" });
      expect(response?.status()).toBe(200);
      // Operation summaries and areas (tags), rendered from the served document.
      for (const text of [
        "Liveness",
        "Readiness",
        "API name and version",
        "Accounts and sessions",
        "Orders",
      ]) {
        await page.getByText(text, { exact: true }).first().waitFor({ state: "visible", timeout: 60_000 });
      }
      // A collapsed area opens on a click, with its operations.
      await page.getByText("Accounts and sessions", { exact: true }).first().click();
      await page
        .getByText("Create an account (pending email verification)")
        .first()
        .waitFor({ state: "visible", timeout: 30_000 });
      // For a person to look at: what the browser showed.
      await page.screenshot({ path: join(tmpdir(), "agora-docs.png") });
      await expect(page.title()).resolves.toBe("Agora API reference");

      expect(elsewhere, "requests to other origins").toEqual([]);
      // The one refusal expected: the zod inside the bundle probes `Function("")` once to decide
      // whether it may compile validators, catches the refusal and validates without. Anything else
      // (a script, style, font, image or connection the CSP refused) fails here.
      const violations = await page.evaluate(
        () => (globalThis as unknown as { cspViolations: string[] }).cspViolations,
      );
      expect(violations.filter((violation) => violation !== "script-src eval")).toEqual([]);
      expect(pageErrors).toEqual([]);
      await context.close();
    }, 120_000);
  });
});
