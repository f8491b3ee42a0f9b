import { describe, expect, it } from "vitest";
import { eventually } from "./eventually";

describe("eventually", () => {
  it("waits for true from a boolean check, and for a value from a value check", async () => {
    let asked = 0;
    expect(await eventually(() => ++asked >= 3, { intervalMs: 1 })).toBe(true);
    expect(asked).toBe(3);
    let count = 0;
    expect(await eventually(() => (++count === 2 ? { count } : undefined), { intervalMs: 1 })).toEqual({
      count: 2,
    });
  });

  it("fails after the timeout when the condition never holds", async () => {
    await expect(eventually(() => false, 50)).rejects.toThrow("condition not met in time");
  });

  it("counts a throwing check as not yet only when told to", async () => {
    let asked = 0;
    const flaky = () => {
      asked += 1;
      if (asked < 3) {
        throw new Error("refused");
      }

      return "up";
    };
    await expect(eventually(flaky, { intervalMs: 1 })).rejects.toThrow("refused");
    asked = 0;
    expect(await eventually(flaky, { intervalMs: 1, retryErrors: true })).toBe("up");
  });
});
