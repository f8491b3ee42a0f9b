import { Writable } from "node:stream";
import { AppError } from "@agora/domain/common/app-error";
import { describe, expect, it } from "vitest";
import { createLogger } from "./logging";
import { StartupAbortedError, StartupTimeoutError, waitUntilAvailable } from "./startup";

const createLogCapture = () => {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      callback();
    },
  });

  return { logger: createLogger({ level: "info", destination }), lines };
};

const unavailable = () =>
  new AppError("service_unavailable", "unavailable", {
    cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
  });

describe("waitUntilAvailable", () => {
  it("retries while the dependency is unavailable, one warning per failed attempt, then returns the result", async () => {
    const { logger, lines } = createLogCapture();
    let calls = 0;
    const result = await waitUntilAvailable(
      async () => {
        calls += 1;
        if (calls < 4) {
          throw unavailable();
        }

        return "migrated";
      },
      { dependency: "database", logger, giveUpAfterMs: 10_000, initialDelayMs: 5, maxDelayMs: 20 },
    );
    expect(result).toBe("migrated");
    expect(calls).toBe(4);
    expect(lines.map((line) => [line.msg, line.attempt, line.retry_in_ms])).toEqual([
      ["database unavailable at start-up; waiting", 1, 5],
      ["database unavailable at start-up; waiting", 2, 10],
      ["database unavailable at start-up; waiting", 3, 20],
    ]);
    expect(lines[0]?.err).toMatchObject({ code: "ECONNREFUSED" });
  });

  it("throws at once what waiting cannot fix", async () => {
    const { logger, lines } = createLogCapture();
    const refusal = Object.assign(new Error("password authentication failed"), { code: "28P01" });
    await expect(
      waitUntilAvailable(() => Promise.reject(refusal), { dependency: "database", logger, giveUpAfterMs: 0 }),
    ).rejects.toBe(refusal);
    expect(lines).toEqual([]);
  });

  it("gives up after the limit with StartupTimeoutError", async () => {
    const { logger } = createLogCapture();
    const started = performance.now();
    await expect(
      waitUntilAvailable(() => Promise.reject(unavailable()), {
        dependency: "database",
        logger,
        giveUpAfterMs: 100,
        initialDelayMs: 10,
      }),
    ).rejects.toBeInstanceOf(StartupTimeoutError);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("stops when the signal aborts", async () => {
    const { logger } = createLogCapture();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    await expect(
      waitUntilAvailable(() => Promise.reject(unavailable()), {
        dependency: "database",
        logger,
        signal: controller.signal,
        giveUpAfterMs: 0,
        initialDelayMs: 10_000,
      }),
    ).rejects.toBeInstanceOf(StartupAbortedError);
  });
});
