import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { registerLogMetrics } from "./log-metrics";

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

describe("agora_log_lines_dropped_total", () => {
  it("copies the destination's count at each scrape", async () => {
    const registry = new Registry();
    let dropped = 0;
    registerLogMetrics(registry, () => dropped);
    expect(await registry.metrics()).toContain("agora_log_lines_dropped_total 0\n");
    dropped = 42;
    expect(await registry.metrics()).toContain("agora_log_lines_dropped_total 42\n");
    expect(await registry.metrics()).toContain("agora_log_lines_dropped_total 42\n");
  });

  it("reports the lines the process's stdout logger dropped while nobody read its stdout", async () => {
    // A child process logs 40 MiB in one turn of its event loop to a pipe this test never reads:
    // the kernel takes 64 KiB, Node queues up to the 16 MiB bound, the rest is dropped and counted.
    // The sources' relative imports name no extension (the bundler allows it): Node gets ".ts" added.
    const script = `
      import { registerHooks } from "node:module";
      registerHooks({
        resolve(specifier, context, next) {
          try {
            return next(specifier, context);
          } catch (error) {
            if (specifier.startsWith(".") && !/\\.[cm]?[jt]s$/.test(specifier)) return next(specifier + ".ts", context);
            throw error;
          }
        },
      });
      const { Registry } = await import("prom-client");
      const { createLogger } = await import(${JSON.stringify(here("./logging.ts"))});
      const { registerLogMetrics } = await import(${JSON.stringify(here("./log-metrics.ts"))});
      const registry = new Registry();
      registerLogMetrics(registry);
      const logger = createLogger({ level: "info" });
      const filler = "x".repeat(1000);
      for (let i = 0; i < 40_000; i++) logger.info({ i, filler }, "line");
      process.stderr.write(await registry.getSingleMetricAsString("agora_log_lines_dropped_total"));
      process.exit(0);
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      cwd: here("."),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.stdout.destroy();

    expect(code, stderr).toBe(0);
    const dropped = Number(/^agora_log_lines_dropped_total (\d+)$/m.exec(stderr)?.[1]);
    // Each line is about 1.1 KB: about 15,000 fit in the queue, about 25,000 are dropped.
    expect(dropped).toBeGreaterThan(20_000);
    expect(dropped).toBeLessThan(30_000);
  });
});
