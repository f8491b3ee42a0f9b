import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBatchedRateLimiter } from "../src/repositories/batched-rate-limits";
import { createRateLimiter } from "../src/repositories/rate-limits.repository";
import type { SqlExecutor } from "../src/sql";
import { createTestDatabase, type TestDatabase } from "./databases";

// The limits on reads (public search): counted in the process, added to the store in one statement
// per flush. The timer is set far out so each test flushes when it says.
describe("createBatchedRateLimiter", () => {
  let target: TestDatabase;
  const windowSeconds = 3600;
  const noTimer = { flushIntervalMs: 3_600_000 };
  const stored = async (key: string) =>
    (await createRateLimiter(target.db.sql).peek([key], windowSeconds, new Date()))[0]?.hits;

  beforeAll(async () => {
    target = await createTestDatabase();
  });
  afterAll(async () => {
    await target?.dispose();
  });

  it("judges each hit in the process, writes nothing until it flushes, then adds the count in one statement", async () => {
    const limiter = createBatchedRateLimiter(target.db.sql, noTimer);
    const key = "write:searches:ip:192.0.2.1";
    const now = new Date();
    const results = [];
    for (let i = 0; i < 4; i += 1) {
      results.push(await limiter.hit(key, 3, windowSeconds, now));
    }
    expect(results.map((r) => [r.allowed, r.hits])).toEqual([
      [true, 1],
      [true, 2],
      [true, 3],
      [false, 4],
    ]);
    expect(results[0]?.retryAfterSeconds).toBe(windowSeconds);
    expect(await stored(key)).toBe(0);
    await limiter.flush();
    expect(await stored(key)).toBe(4);
    // After the flush the store's count is the base: still refused.
    expect(await limiter.hit(key, 3, windowSeconds, now)).toMatchObject({ allowed: false, hits: 5 });
    await limiter.close();
    expect(await stored(key)).toBe(5);
  });

  it("holds across two processes within what the other admits between its flushes", async () => {
    const a = createBatchedRateLimiter(target.db.sql, noTimer);
    const b = createBatchedRateLimiter(target.db.sql, noTimer);
    const key = "write:searches:ip:192.0.2.2";
    const now = new Date();
    for (let i = 0; i < 3; i += 1) {
      expect((await a.hit(key, 4, windowSeconds, now)).allowed).toBe(true);
    }
    await a.flush();
    // b has not flushed: it knows only its own hit (the bounded overshoot).
    expect(await b.hit(key, 4, windowSeconds, now)).toMatchObject({ allowed: true, hits: 1 });
    await b.flush();
    expect(await stored(key)).toBe(4);
    // Once flushed, b judges from the shared count: the fifth hit overall is refused on b.
    expect(await b.hit(key, 4, windowSeconds, now)).toMatchObject({ allowed: false, hits: 5 });
    await a.close();
    await b.close();
  });

  it("starts a new window when the stored one has ended, in the store and in the process", async () => {
    const limiter = createBatchedRateLimiter(target.db.sql, noTimer);
    const key = "write:searches:ip:192.0.2.3";
    const start = new Date(Date.now() - 2 * windowSeconds * 1000);
    await limiter.hit(key, 2, windowSeconds, start);
    await limiter.hit(key, 2, windowSeconds, start);
    await limiter.flush();
    expect(await limiter.hit(key, 2, windowSeconds, start)).toMatchObject({ allowed: false, hits: 3 });
    const later = new Date();
    expect(await limiter.hit(key, 2, windowSeconds, later)).toMatchObject({ allowed: true, hits: 2 });
    await limiter.flush();
    // The old window's unflushed hit and the new one were written at `later`: the window restarted.
    expect(await stored(key)).toBe(2);
    await limiter.close();
  });

  it("keeps the counts of a flush that failed and adds them with the next one", async () => {
    let failNext = true;
    const flaky: SqlExecutor = {
      ...target.db.sql,
      query: ((...args: Parameters<SqlExecutor["query"]>) => {
        if (failNext) {
          failNext = false;
          return Promise.reject(new Error("connection lost"));
        }
        return target.db.sql.query(...args);
      }) as SqlExecutor["query"],
    };
    const errors: unknown[] = [];
    const limiter = createBatchedRateLimiter(flaky, { ...noTimer, onError: (error) => errors.push(error) });
    const key = "write:searches:ip:192.0.2.4";
    await limiter.hit(key, 10, windowSeconds, new Date());
    await limiter.hit(key, 10, windowSeconds, new Date());
    await limiter.flush();
    expect(errors).toHaveLength(1);
    expect(await stored(key)).toBe(0);
    await limiter.hit(key, 10, windowSeconds, new Date());
    await limiter.flush();
    expect(await stored(key)).toBe(3);
    await limiter.close();
  });

  it("tries a database that failed once per interval, not on every hit past the key bound", async () => {
    let attempts = 0;
    const down: SqlExecutor = {
      ...target.db.sql,
      query: (() => {
        attempts += 1;
        return Promise.reject(new Error("database is down"));
      }) as SqlExecutor["query"],
    };
    const limiter = createBatchedRateLimiter(down, { ...noTimer, maxHeldKeys: 1, onError: () => {} });
    for (let i = 0; i < 50; i += 1) {
      await limiter.hit(`write:searches:ip:203.0.113.${i}`, 10, windowSeconds, new Date());
      await Promise.resolve();
    }
    await limiter.flush();
    // The first early flush failed; the 49 hits after it started none of their own (the explicit one did).
    expect(attempts).toBe(2);
    await limiter.close().catch(() => {});
  });

  it("flushes early when it holds its most keys, and on its timer", async () => {
    const early = createBatchedRateLimiter(target.db.sql, { ...noTimer, maxHeldKeys: 3 });
    for (let i = 0; i < 3; i += 1) {
      await early.hit(`write:searches:ip:198.51.100.${i}`, 10, windowSeconds, new Date());
    }
    await expect.poll(() => stored("write:searches:ip:198.51.100.2")).toBe(1);
    await early.close();
    const timed = createBatchedRateLimiter(target.db.sql, { flushIntervalMs: 50 });
    await timed.hit("write:searches:ip:198.51.100.9", 10, windowSeconds, new Date());
    await expect.poll(() => stored("write:searches:ip:198.51.100.9")).toBe(1);
    await timed.close();
  });
});
