import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHousekeeper } from "../src/repositories/housekeeping.repository";
import { createTestDatabase, type TestDatabase } from "./databases";

describe("housekeeping", () => {
  let target: TestDatabase;
  const now = new Date("2026-11-22T12:00:00Z");
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const day = 24 * 3600_000;

  beforeAll(async () => {
    target = await createTestDatabase();
  });
  afterAll(async () => {
    await target?.dispose();
  });

  it("removes done rows and keeps live ones and dead letters", async () => {
    const { sql } = target.db;
    const event = (id: string, processedAt: Date | null, deadAt: Date | null) =>
      sql.query(
        `INSERT INTO outbox_events (id, kind, aggregate_type, aggregate_id, payload, available_at, processed_at, dead_at, created_at)
         VALUES ($1, 'x', 'x', 'x', '{}', $2, $3, $4, $2)`,
        [id, ago(30 * day), processedAt, deadAt],
      );
    await event("00000000-0000-7000-8000-000000000001", ago(8 * day), null);
    await event("00000000-0000-7000-8000-000000000002", ago(1 * day), null);
    await event("00000000-0000-7000-8000-000000000003", null, ago(20 * day));
    await event("00000000-0000-7000-8000-000000000004", null, null);
    const key = (key: string, expiresAt: Date) =>
      sql.query(
        `INSERT INTO idempotency_keys (scope, route, key, fingerprint, outcome, created_at, expires_at)
         VALUES ('s', 'r', $1, 'f', '{"type":"result","value":null}', $2, $3)`,
        [key, ago(2 * day), expiresAt],
      );
    await key("expired", ago(1000));
    await key("live", new Date(now.getTime() + 1000));
    await sql.query(
      "INSERT INTO rate_limits (key, window_started_at, hits) VALUES ('old', $1, 3), ('new', $2, 1)",
      [ago(2 * day), ago(60_000)],
    );

    const counts = await createHousekeeper(sql, { pendingAccountTtlSeconds: 172_800 }).purge(now);
    expect(counts).toMatchObject({ outbox_events: 1, idempotency_keys: 1, rate_limits: 1 });
    const left = await sql.query<{ id: string }>("SELECT id FROM outbox_events ORDER BY id");
    expect(left.rows.map((row) => row.id.slice(-1))).toEqual(["2", "3", "4"]);
    expect((await sql.query<{ key: string }>("SELECT key FROM idempotency_keys")).rows).toEqual([
      { key: "live" },
    ]);
    expect((await sql.query<{ key: string }>("SELECT key FROM rate_limits")).rows).toEqual([{ key: "new" }]);
    expect(await createHousekeeper(sql, { pendingAccountTtlSeconds: 172_800 }).purge(now)).toMatchObject({
      outbox_events: 0,
      idempotency_keys: 0,
    });
  });
});
