import { describe, expect, it } from "vitest";
import { createArgon2Passwords } from "./argon2-passwords";
import { createWorkLimiter, WorkLimiterFullError } from "./work-limiter";

describe("work limiter", () => {
  it("never runs more than `concurrency` tasks at once, queues up to `queue`, refuses the rest at once", async () => {
    const limiter = createWorkLimiter({ concurrency: 2, queue: 3 });
    let running = 0;
    let most = 0;
    const gates: Array<() => void> = [];
    const task = () =>
      new Promise<string>((resolve) => {
        running += 1;
        most = Math.max(most, running);
        gates.push(() => {
          running -= 1;
          resolve("done");
        });
      });
    const accepted = Array.from({ length: 5 }, () => limiter.run(task));
    expect(limiter.stats()).toEqual({ active: 2, queued: 3, peak: 2 });
    await expect(limiter.run(task)).rejects.toBeInstanceOf(WorkLimiterFullError);
    while (gates.length > 0 || running > 0) {
      gates.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(accepted)).toEqual(["done", "done", "done", "done", "done"]);
    expect(most).toBe(2);
    expect(limiter.stats()).toEqual({ active: 0, queued: 0, peak: 2 });
  });

  it("frees the slot when a task throws", async () => {
    const limiter = createWorkLimiter({ concurrency: 1, queue: 0 });
    await expect(limiter.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await limiter.run(async () => 42)).toBe(42);
  });
});

describe("argon2 passwords under the limiter", () => {
  it("keeps concurrent argon2 work within the bound and answers busy past the queue", async () => {
    const passwords = createArgon2Passwords({ memoryCost: 1024, timeCost: 1 }, { concurrency: 2, queue: 4 });
    const settled = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => passwords.hash(`password ${i}`)),
    );
    const refused = settled.filter((result) => result.status === "rejected");
    expect(settled.filter((result) => result.status === "fulfilled")).toHaveLength(6);
    expect(refused).toHaveLength(2);
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({
      code: "service_unavailable",
      retryAfterSeconds: 1,
    });
    expect(passwords.limiter.stats()).toEqual({ active: 0, queued: 0, peak: 2 });
    const stored = (settled[0] as PromiseFulfilledResult<string>).value;
    expect(await passwords.verify(stored, "password 0")).toBe(true);
    expect(await passwords.verify(stored, "password 1")).toBe(false);
    expect(await passwords.verify("not a hash", "x")).toBe(false);
  });
});
