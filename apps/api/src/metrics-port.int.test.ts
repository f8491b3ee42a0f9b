// METRICS_PORT on the built API process: /metrics is served on that port only, and the main port
// (which a balancer routes every path of) answers it 404. Without it, /metrics is on the main port.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eventually } from "@agora/testing/eventually";
import { builtEntry, freePort, startProcess } from "@agora/testing/processes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness } from "../test/harness";

const main = new URL("../dist/main.js", import.meta.url);

describe("METRICS_PORT", () => {
  let dataDir: string;

  beforeAll(() => {
    builtEntry(main);
    dataDir = mkdtempSync(path.join(tmpdir(), "agora-metrics-port-"));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("by default /metrics answers 200 on the API's port", async () => {
    const h = await createHarness({ seed: false });
    try {
      const res = await h.request("GET", "/metrics");
      expect(res.status).toBe(200);
      expect(res.text).toContain("http_request_duration_seconds");
    } finally {
      await h.close();
    }
  });

  it("set: /metrics on its own port only; the main port answers it 404 not_found in the envelope", async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const { child, exited } = startProcess({
      args: [builtEntry(main)],
      env: {
        APP_ENV: "test",
        HOST: "127.0.0.1",
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
      },
    });
    try {
      await eventually(async () => (await fetch(`http://127.0.0.1:${port}/health`)).ok, {
        timeoutMs: 20_000,
        retryErrors: true,
      });
      const onMain = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(onMain.status).toBe(404);
      expect(await onMain.json()).toMatchObject({ success: false, error: { code: "not_found" } });
      const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(scrape.status).toBe(200);
      expect(scrape.headers.get("content-type")).toContain("text/plain");
      const text = await scrape.text();
      // The main port's requests are in it, /metrics's own 404 among them.
      expect(text).toMatch(
        /http_request_duration_seconds_count\{method="GET",route="\/metrics",status="404"\} 1/,
      );
      expect(text).toContain("agora_outbox_deliveries_total");
      expect((await fetch(`http://127.0.0.1:${metricsPort}/api/v1`)).status).toBe(404);
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
  });
});
