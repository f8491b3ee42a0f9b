import { describe, expect, it } from "vitest";
import { type PurgeCounts, runHousekeeping } from "./housekeeping";

describe("runHousekeeping", () => {
  it("tries a failed purge again after the retry pause, not a whole interval, and reports both", async () => {
    const controller = new AbortController();
    const reports: (PurgeCounts | Error)[] = [];
    let calls = 0;
    const housekeeper = {
      async purge() {
        calls += 1;
        if (calls === 1) {
          throw new Error("database unavailable");
        }
        controller.abort();

        return { outbox_events: 2 };
      },
      expireOrphanMedia: async () => [],
      deleteExpiredMedia: async () => 0,
    };

    const started = performance.now();
    await runHousekeeping(
      { housekeeper, objects: { delete: async () => {} }, clock: { now: () => new Date() } },
      {
        signal: controller.signal,
        intervalMs: 60_000,
        retryMs: 20,
        report: (result) => reports.push(result),
      },
    );

    expect(calls).toBe(2);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(reports[0]).toBeInstanceOf(Error);
    expect(reports[1]).toEqual({ outbox_events: 2, media_assets: 0, media_objects_failed: 0 });
  });
});
