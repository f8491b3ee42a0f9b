// METRICS_PORT on the built API process: /metrics is served on that port only, and the main port
// (which a balancer routes every path of) answers it 404. Without it, /metrics is on the main port.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness } from "../test/harness";
import { freePort } from "../test/private-postgres";

const main = fileURLToPath(new URL("../dist/main.js", import.meta.url));

const eventually = async <T>(check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error("condition not met in time");
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

describe("METRICS_PORT", () => {
  let dataDir: string;

  beforeAll(() => {
    if (!existsSync(main)) {
      throw new Error("apps/api/dist is missing: run `pnpm build` (turbo runs it before `pnpm test`)");
    }
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
    const child: ChildProcess = spawn(process.execPath, [main], {
      env: {
        PATH: process.env.PATH ?? "",
        APP_ENV: "test",
        HOST: "127.0.0.1",
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
      },
      stdio: "ignore",
    });
    try {
      await eventually(async () => ((await fetch(`http://127.0.0.1:${port}/health`)).ok ? true : undefined));
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
      await new Promise((resolve) => child.once("exit", resolve));
    }
  });
});
