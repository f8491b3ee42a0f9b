import { describe, expect, it } from "vitest";
import { createSingleFlight } from "./single-flight";

/** Work whose calls the test settles by hand, numbered in the order they started. */
const manualWork = () => {
  const pending: { key: string; resolve(value: string): void; reject(error: Error): void }[] = [];
  const work = (key: string) => () =>
    new Promise<string>((resolve, reject) => {
      pending.push({ key, resolve, reject });
    });

  return { work, pending };
};
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe("createSingleFlight", () => {
  it("never answers a caller with a call that began before it asked; callers during a call share the next one", async () => {
    const { work, pending } = manualWork();
    const flight = createSingleFlight<string>();

    const first = flight("q", work("q"));
    expect(pending).toHaveLength(1);
    // Arrived while the first call runs (say, after their own write committed): they may not take
    // its answer, and they do not start one each.
    const during = [flight("q", work("q")), flight("q", work("q")), flight("q", work("q"))];
    expect(pending).toHaveLength(1);
    pending[0]?.resolve("before");
    expect(await first).toBe("before");
    await settled();
    expect(pending).toHaveLength(2);
    pending[1]?.resolve("after");
    expect(await Promise.all(during)).toEqual(["after", "after", "after"]);
    await settled();
    // Nothing running for the key: the next caller starts at once.
    const alone = flight("q", work("q"));
    expect(pending).toHaveLength(3);
    pending[2]?.resolve("alone");
    expect(await alone).toBe("alone");
  });

  it("keeps keys apart: a call for another key starts at once", async () => {
    const { work, pending } = manualWork();
    const flight = createSingleFlight<string>();

    const a = flight("a", work("a"));
    const b = flight("b", work("b"));
    expect(pending.map((call) => call.key)).toEqual(["a", "b"]);
    pending[1]?.resolve("B");
    pending[0]?.resolve("A");
    expect(await Promise.all([a, b])).toEqual(["A", "B"]);
  });

  it("gives a failure only to the callers of the call that failed; those waiting get a call of their own", async () => {
    const { work, pending } = manualWork();
    const flight = createSingleFlight<string>();

    const first = flight("q", work("q"));
    const waiting = flight("q", work("q"));
    pending[0]?.reject(new Error("database unavailable"));
    await expect(first).rejects.toThrow("database unavailable");
    await settled();
    expect(pending).toHaveLength(2);
    pending[1]?.resolve("recovered");
    expect(await waiting).toBe("recovered");
  });
});
