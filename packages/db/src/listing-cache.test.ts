import { describe, expect, it } from "vitest";
import { createBatchedRead, createListingPageCache } from "./listing-cache";

describe("createListingPageCache", () => {
  const at = (ms: number) => new Date(ms);

  it("serves a page only at its stamp and inside [read time, valid until)", () => {
    const cache = createListingPageCache<string>(10);
    cache.set("q", "page", "7", at(1_000), at(5_000));
    expect(cache.get("q", "7", at(1_000))).toBe("page");
    expect(cache.get("q", "7", at(4_999))).toBe("page");
    expect(cache.get("q", "7", at(5_000))).toBeUndefined();
    expect(cache.get("q", "7", at(999))).toBeUndefined();
    expect(cache.get("q", "8", at(2_000))).toBeUndefined();
    expect(cache.get("other", "7", at(2_000))).toBeUndefined();
    cache.set("forever", "page", "7", at(1_000), null);
    expect(cache.get("forever", "7", at(10 ** 15))).toBe("page");
    expect(cache.figures()).toEqual({ hits: 3, misses: 4, pages: 2 });
  });

  it("keeps at most its capacity, dropping the page served or stored longest ago", () => {
    const cache = createListingPageCache<number>(2);
    cache.set("a", 1, "1", at(0), null);
    cache.set("b", 2, "1", at(0), null);
    expect(cache.get("a", "1", at(0))).toBe(1);
    cache.set("c", 3, "1", at(0), null);
    expect([cache.get("a", "1", at(0)), cache.get("b", "1", at(0)), cache.get("c", "1", at(0))]).toEqual([
      1,
      undefined,
      3,
    ]);
  });
});

describe("createBatchedRead", () => {
  /** A read whose calls the test settles by hand, numbered in the order they started. */
  const manualRead = () => {
    const pending: { resolve(value: number): void; reject(error: Error): void }[] = [];
    const read = () =>
      new Promise<number>((resolve, reject) => {
        pending.push({ resolve, reject });
      });

    return { read, pending };
  };
  const settled = () => new Promise((resolve) => setImmediate(resolve));

  it("gives every caller a read that started after it asked; callers during a read share the next one", async () => {
    const { read, pending } = manualRead();
    const batched = createBatchedRead(read);

    const first = batched();
    expect(pending).toHaveLength(1);
    // Asked while the first read runs: none of them may take its answer.
    const during = [batched(), batched(), batched()];
    expect(pending).toHaveLength(1);
    pending[0]?.resolve(1);
    expect(await first).toBe(1);
    await settled();
    expect(pending).toHaveLength(2);
    // Asked while the second read runs: they wait for a third.
    const later = batched();
    pending[1]?.resolve(2);
    expect(await Promise.all(during)).toEqual([2, 2, 2]);
    await settled();
    expect(pending).toHaveLength(3);
    pending[2]?.resolve(3);
    expect(await later).toBe(3);
    // Nothing running: a new caller starts its own read at once.
    const alone = batched();
    expect(pending).toHaveLength(4);
    pending[3]?.resolve(4);
    expect(await alone).toBe(4);
  });

  it("passes a failed read to its callers and reads again for the next ones", async () => {
    const { read, pending } = manualRead();
    const batched = createBatchedRead(read);

    const first = batched();
    const queued = batched();
    pending[0]?.reject(new Error("database unavailable"));
    await expect(first).rejects.toThrow("database unavailable");
    await settled();
    pending[1]?.reject(new Error("still unavailable"));
    await expect(queued).rejects.toThrow("still unavailable");
    const after = batched();
    pending[2]?.resolve(9);
    expect(await after).toBe(9);
  });
});
