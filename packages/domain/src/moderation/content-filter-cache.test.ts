import { describe, expect, it } from "vitest";
import type { FilterRule } from "./content-filter";
import type { ContentFilterSource } from "./content-filter.ports";
import { createContentFilterCache } from "./content-filter-cache";

const rule = (id: string): FilterRule => ({
  id,
  match: "word",
  value: id,
  normalizedValue: id,
  action: "block",
  contexts: ["moments"],
});

/** A source over `rules` counting its reads; its fingerprint is the rules' ids. */
const sourceOf = (rules: FilterRule[]) => {
  const reads = { fingerprints: 0, loads: 0 };
  const source: ContentFilterSource = {
    fingerprint: async () => {
      reads.fingerprints += 1;

      return rules.map((r) => r.id).join(",");
    },
    loadAll: async () => {
      reads.loads += 1;

      return [...rules];
    },
    countHits: async () => {},
  };

  return { source, reads };
};

describe("the content filter cache", () => {
  it("reuses the compiled rules for a second, then reloads only when the fingerprint changed", async () => {
    const rules = [rule("a")];
    const { source, reads } = sourceOf(rules);
    let now = 0;
    const cache = createContentFilterCache(source, { now: () => now });
    expect((await cache.current()).size).toBe(1);
    expect(reads).toEqual({ fingerprints: 1, loads: 1 });

    now = 999;
    rules.push(rule("b"));
    expect((await cache.current()).size).toBe(1);
    expect(reads).toEqual({ fingerprints: 1, loads: 1 });

    now = 1000;
    expect((await cache.current()).size).toBe(2);
    expect(reads).toEqual({ fingerprints: 2, loads: 2 });

    now = 2500;
    expect((await cache.current()).size).toBe(2);
    expect(reads).toEqual({ fingerprints: 3, loads: 2 });
  });

  it("reloads at once after invalidate, and concurrent checks share one refresh", async () => {
    const rules = [rule("a")];
    const { source, reads } = sourceOf(rules);
    const cache = createContentFilterCache(source, { now: () => 0 });
    const [first, second] = await Promise.all([cache.current(), cache.current()]);
    expect(first).toBe(second);
    expect(reads.loads).toBe(1);

    rules.push(rule("b"));
    expect((await cache.current()).size).toBe(1);
    cache.invalidate();
    expect((await cache.current()).size).toBe(2);
    expect(reads.loads).toBe(2);
  });

  it("does not keep a refresh that began before an invalidate", async () => {
    const rules = [rule("a")];
    const { source } = sourceOf(rules);
    const cache = createContentFilterCache(source, { now: () => 0 });
    const stale = cache.current();
    rules.push(rule("b"));
    cache.invalidate();
    await stale;
    expect((await cache.current()).size).toBe(2);
  });
});
