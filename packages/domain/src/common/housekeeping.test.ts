import { describe, expect, it } from "vitest";
import { type ExpiredMedia, type PurgeCounts, purgeOrphanMedia, runHousekeeping } from "./housekeeping";

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
    // Aborted during the purge: no orphan batch is started.
    expect(reports[1]).toEqual({
      outbox_events: 2,
      media_assets: 0,
      media_objects_failed: 0,
      media_batches: 0,
    });
  });
});

/** A stand-in for the table's orphan rows: which are expired, which are gone (the loop's control only). */
const orphans = (count: number) => {
  const rows = Array.from({ length: count }, (_, i) => ({ id: `m${i}`, expired: false, gone: false }));
  const sizes: number[] = [];

  return {
    rows,
    sizes,
    housekeeper: {
      purge: async () => ({}),
      async expireOrphanMedia(_cutoff: Date, limit: number): Promise<ExpiredMedia[]> {
        for (const row of rows.filter((r) => !r.expired && !r.gone).slice(0, limit)) {
          row.expired = true;
        }
        const batch = rows.filter((r) => r.expired && !r.gone).slice(0, limit);
        sizes.push(batch.length);

        return batch.map((r) => ({ id: r.id, objectKey: `media/${r.id}` }));
      },
      async deleteExpiredMedia(ids: readonly string[]) {
        for (const row of rows.filter((r) => ids.includes(r.id))) {
          row.gone = true;
        }

        return ids.length;
      },
    },
  };
};

describe("purgeOrphanMedia", () => {
  it("goes on in batches while they come back full, and stops at the first short one", async () => {
    const table = orphans(23);
    const counts = await purgeOrphanMedia(
      { housekeeper: table.housekeeper, objects: { delete: async () => {} } },
      new Date(),
      { batchSize: 5 },
    );
    expect(table.sizes).toEqual([5, 5, 5, 5, 3]);
    expect(counts).toEqual({ media_assets: 23, media_objects_failed: 0, media_batches: 5 });
    expect(table.rows.every((row) => row.gone)).toBe(true);
  });

  it("stops at a batch where the store deleted nothing, and counts each failed asset once", async () => {
    const table = orphans(12);
    const counts = await purgeOrphanMedia(
      { housekeeper: table.housekeeper, objects: { delete: () => Promise.reject(new Error("store down")) } },
      new Date(),
      { batchSize: 5 },
    );
    expect(counts).toEqual({ media_assets: 0, media_objects_failed: 5, media_batches: 1 });
  });

  it("keeps going past assets whose objects fail, and tries them again in the later batches", async () => {
    const table = orphans(12);
    const counts = await purgeOrphanMedia(
      {
        housekeeper: table.housekeeper,
        objects: {
          delete: async (key) => {
            if (key.startsWith("media/m0")) {
              throw new Error("this one fails");
            }
          },
        },
      },
      new Date(),
      { batchSize: 5 },
    );
    expect(counts).toEqual({ media_assets: 11, media_objects_failed: 1, media_batches: 3 });
    expect(table.rows.filter((row) => !row.gone).map((row) => row.id)).toEqual(["m0"]);
  });
});
