import { describe, expect, it } from "vitest";
import { describeFailure, OUTBOX_BACKOFF, retryDelayMs } from "./backoff";

const fixed = (value: number) => () => value;

describe("retryDelayMs", () => {
  it("waits exactly the 1 s base after the first failure, whatever the jitter draws", () => {
    for (const draw of [0, 0.5, 0.999_999]) {
      expect(retryDelayMs(1, fixed(draw))).toBe(OUTBOX_BACKOFF.baseMs);
    }
  });

  it("spans [base, base·2^(n−1)] after failure n: the lowest draw gives the base, the highest the ceiling", () => {
    for (let failures = 2; failures <= 8; failures += 1) {
      const ceiling = OUTBOX_BACKOFF.baseMs * 2 ** (failures - 1);
      expect(retryDelayMs(failures, fixed(0))).toBe(OUTBOX_BACKOFF.baseMs);
      expect(retryDelayMs(failures, fixed(1))).toBe(ceiling);
      expect(retryDelayMs(failures, fixed(0.5))).toBe(Math.round((OUTBOX_BACKOFF.baseMs + ceiling) / 2));
    }
  });

  it("never exceeds the 5 minute cap, even after many failures", () => {
    expect(retryDelayMs(9, fixed(1))).toBe(256_000);
    for (const failures of [10, 11, 20, 1_000]) {
      expect(retryDelayMs(failures, fixed(1))).toBe(OUTBOX_BACKOFF.capMs);
      expect(retryDelayMs(failures, fixed(0))).toBe(OUTBOX_BACKOFF.baseMs);
    }
  });

  it("stays within its bounds for random draws (full jitter)", () => {
    for (let failures = 1; failures <= 12; failures += 1) {
      const ceiling = Math.min(OUTBOX_BACKOFF.capMs, OUTBOX_BACKOFF.baseMs * 2 ** (failures - 1));
      const delays = Array.from({ length: 200 }, () => retryDelayMs(failures, Math.random));
      expect(Math.min(...delays)).toBeGreaterThanOrEqual(OUTBOX_BACKOFF.baseMs);
      expect(Math.max(...delays)).toBeLessThanOrEqual(ceiling);
      if (failures >= 4) {
        // Jitter spreads retries: 200 draws over a window of seconds are not all the same.
        expect(new Set(delays).size).toBeGreaterThan(1);
      }
    }
  });

  it("treats a count below one as the first failure and clamps a source outside [0, 1)", () => {
    expect(retryDelayMs(0, fixed(0.9))).toBe(OUTBOX_BACKOFF.baseMs);
    expect(retryDelayMs(3, fixed(-1))).toBe(OUTBOX_BACKOFF.baseMs);
    expect(retryDelayMs(3, fixed(7))).toBe(4_000);
  });
});

describe("describeFailure", () => {
  it("keeps the error type and the first message line, never the stack", () => {
    const error = new TypeError("push provider said no\n    at secret (file.ts:1:1)");
    const described = describeFailure(error);
    expect(described).toBe("TypeError: push provider said no");
    expect(described).not.toContain("at ");
  });

  it("describes non-Error throws and bounds the length", () => {
    expect(describeFailure("plain")).toBe("string: plain");
    expect(describeFailure(new Error("x".repeat(2_000)))).toHaveLength(500);
  });
});
