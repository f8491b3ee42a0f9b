import { createHousekeeper } from "@agora/db/repositories/housekeeping.repository";
import { onPostgres } from "@agora/db/test/databases";
import { purgeOrphanMedia } from "@agora/domain/common/housekeeping";
import { writeLimitDefaults } from "@agora/domain/common/write-limits";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";
import { type LocalS3, processedMedia, startLocalS3, uploadMedia } from "../../../test/s3";

type ErrorBody = { error: { code: string; message: string } };
const HOUR = 3600_000;
const MIB = 1024 * 1024;

/** docs/media.md, "Pending uploads" and "Orphans". */
describe("pending-upload quota and the orphan purge", () => {
  let s3: LocalS3;
  let h: Harness;

  beforeAll(async () => {
    s3 = await startLocalS3();
    h = await createHarness({
      config: {
        s3: s3.config,
        mediaUploadQuota: { maxPending: 3, maxPendingBytes: 24 * MIB },
        // The hourly ticket limit stays out of the way: the quota is what is tested.
        writeLimitsPerHour: { ...writeLimitDefaults, uploads: 1000 },
      },
    });
  });
  afterAll(async () => {
    await h?.close();
    await s3?.close();
  });

  const ask = (who: SignedIn, sizeBytes = 1000) =>
    h.post<ErrorBody>(
      "/api/v1/media/upload",
      { purpose: "moment", mime_type: "image/jpeg", size_bytes: sizeBytes },
      { token: who.accessToken },
    );
  /** Moves the clock, and answers a new session of `who` (access tokens live 15 minutes). */
  const after = async (ms: number, who: SignedIn) => {
    h.clock.advance(ms);

    return h.openSession(who.user);
  };
  const assetsOf = async (userId: string) =>
    Number(
      (
        await h.db.sql.query<{ n: string }>("SELECT count(*) AS n FROM media_assets WHERE owner_id = $1", [
          userId,
        ])
      ).rows[0]?.n,
    );

  it("refuses a pending upload past the count with 429, Retry-After and the quota's RateLimit headers; nothing is recorded", async () => {
    let ada = await h.signIn();
    for (let i = 0; i < 3; i += 1) {
      const res = await ask(ada);
      expect(res.status).toBe(201);
      ada = await after(HOUR, ada);
    }
    const refused = await ask(ada);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limited");
    // The oldest pending upload stops counting 24 hours after it was asked for: 21 hours from now.
    expect(refused.headers.get("retry-after")).toBe(String(21 * 3600));
    expect(refused.headers.get("ratelimit-limit")).toBe("3");
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("ratelimit-reset")).toBe(String(21 * 3600));
    expect(await assetsOf(ada.user.id)).toBe(3);

    // Another account has its own quota.
    expect((await ask(await h.signIn())).status).toBe(201);

    // Once the oldest is 24 hours old it no longer counts (the orphan purge takes it).
    const later = await after(21 * HOUR, ada);
    expect((await ask(later)).status).toBe(201);
    expect((await ask(later)).status).toBe(429);
  });

  it("stops counting an upload once a record takes it, not when it is confirmed or processed", async () => {
    const bob = await h.signIn();
    const first = await processedMedia(h, bob.accessToken);
    await uploadMedia(h, bob.accessToken);
    await uploadMedia(h, bob.accessToken);
    // Confirmed and processed, but taken by no record: still pending.
    expect((await ask(bob)).status).toBe(429);

    const moment = await h.post(
      "/api/v1/community/moments",
      { media_asset_ids: [first.id] },
      { token: bob.accessToken },
    );
    expect(moment.status).toBe(201);
    expect((await ask(bob)).status).toBe(201);
    expect((await ask(bob)).status).toBe(429);
  });

  it("refuses declared bytes past the quota, telling the bytes left; a smaller upload still fits", async () => {
    let cleo = await h.signIn();
    expect((await ask(cleo, 10 * MIB)).status).toBe(201);
    cleo = await after(HOUR, cleo);
    expect((await ask(cleo, 10 * MIB)).status).toBe(201);
    const refused = await ask(cleo, 5 * MIB);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limited");
    expect(refused.headers.get("ratelimit-limit")).toBe(String(24 * MIB));
    expect(refused.headers.get("ratelimit-remaining")).toBe(String(4 * MIB));
    // The first 10 MiB leave 24 hours after they were asked for.
    expect(refused.headers.get("retry-after")).toBe(String(23 * 3600));
    expect(await assetsOf(cleo.user.id)).toBe(2);
    expect((await ask(cleo, 4 * MIB)).status).toBe(201);
  });

  it.runIf(onPostgres)(
    "grants exactly the quota to parallel requests of one account (PostgreSQL)",
    { timeout: 60_000 },
    async () => {
      const dan = await h.signIn();
      const answers = await Promise.all(Array.from({ length: 12 }, () => ask(dan)));
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses).toEqual([201, 201, 201, ...Array<number>(9).fill(429)]);
      expect(await assetsOf(dan.user.id)).toBe(3);

      // Bytes too: 24 MiB of quota, 10 MiB each, 2 fit (the count quota would allow 3).
      const eve = await h.signIn();
      const big = await Promise.all(Array.from({ length: 8 }, () => ask(eve, 10 * MIB)));
      expect(big.filter((res) => res.status === 201)).toHaveLength(2);
      expect(big.filter((res) => res.status === 429)).toHaveLength(6);
      expect(await assetsOf(eve.user.id)).toBe(2);
    },
  );

  it("purges orphans in batches until none is left, every object of each gone from the store", async () => {
    // The quota is per account: a few accounts make more orphans than one batch.
    const owners = await Promise.all([h.signIn(), h.signIn(), h.signIn(), h.signIn()]);
    const orphans: string[] = [];
    for (const owner of owners) {
      for (let i = 0; i < 3; i += 1) {
        orphans.push((await uploadMedia(h, owner.accessToken)).id);
      }
    }
    for (const id of orphans) {
      expect(await s3.has(`uploads/${id}`)).toBe(true);
    }
    // One processed: its copy and variants go too (its upload was deleted once processed).
    const processedOwner = await h.signIn();
    const processed = (await processedMedia(h, processedOwner.accessToken)).id;
    expect(await s3.has(`media/${processed}.thumb.webp`)).toBe(true);
    orphans.push(processed);
    h.clock.advance(25 * HOUR);
    const kept = await uploadMedia(
      h,
      (await h.openSession(owners[0]?.user ?? processedOwner.user)).accessToken,
    );

    const housekeeper = createHousekeeper(h.db.sql, {
      pendingAccountTtlSeconds: h.config.pendingAccountTtlSeconds,
    });
    const counts = await purgeOrphanMedia({ housekeeper, objects: h.runtime.objects.store }, h.clock.now(), {
      batchSize: 4,
    });
    expect(counts.media_objects_failed).toBe(0);
    // Every orphan of the earlier tests too: all in batches of 4, the last one short.
    const deleted = counts.media_assets ?? 0;
    expect(deleted).toBeGreaterThanOrEqual(orphans.length);
    expect(counts.media_batches).toBe(Math.floor(deleted / 4) + 1);
    const { rows } = await h.db.sql.query<{ id: string }>(
      "SELECT id FROM media_assets WHERE id = ANY($1::uuid[])",
      [orphans],
    );
    expect(rows).toEqual([]);
    for (const id of orphans) {
      for (const key of [
        `uploads/${id}`,
        `media/${id}`,
        `media/${id}.full`,
        `media/${id}.thumb.webp`,
        `media/${id}.display.webp`,
      ]) {
        expect(await s3.has(key)).toBe(false);
      }
    }
    const left = await h.db.sql.query<{ n: string }>(
      "SELECT count(*) AS n FROM media_assets WHERE attached_at IS NULL AND created_at < $1",
      [new Date(h.clock.now().getTime() - 24 * HOUR)],
    );
    expect(Number(left.rows[0]?.n)).toBe(0);
    expect(await s3.has(`uploads/${kept.id}`)).toBe(true);
  });
});
