import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSessionActivity } from "../src/repositories/identity/session-activity";
import type { SqlExecutor } from "../src/sql";
import { createTestDatabase, type TestDatabase } from "./databases";

// The sessions' last use: held in the process, written in one statement per flush. The timer is
// set far out so each test flushes when it says.
describe("createSessionActivity", () => {
  let target: TestDatabase;
  const noTimer = { flushIntervalMs: 3_600_000 };
  const t0 = new Date("2026-11-29T06:00:00.000Z");
  const minutes = (n: number) => new Date(t0.getTime() + n * 60_000);

  const newSession = async () => {
    const user = randomUUID();
    const session = randomUUID();
    await target.db.sql.query(
      `INSERT INTO users (id, email, username, password_hash, role, status, created_at, updated_at)
       VALUES ($1, $2, $3, 'x', 'member', 'active', $4, $4)`,
      [user, `${user}@example.test`, `u${user.replaceAll("-", "")}`, t0],
    );
    await target.db.sql.query(
      "INSERT INTO sessions (id, user_id, created_at, last_used_at) VALUES ($1, $2, $3, $3)",
      [session, user, t0],
    );

    return session;
  };
  const lastUsed = async (session: string) =>
    (
      await target.db.sql.query<{ last_used_at: Date | null }>(
        "SELECT last_used_at FROM sessions WHERE id = $1",
        [session],
      )
    ).rows[0]?.last_used_at;

  beforeAll(async () => {
    target = await createTestDatabase();
  });
  afterAll(async () => {
    await target?.dispose();
  });

  it("writes nothing per use, then each session's latest use in one statement", async () => {
    const statements: string[] = [];
    const counting: SqlExecutor = {
      ...target.db.sql,
      query: (text, values, name) => {
        statements.push(name ?? text);

        return target.db.sql.query(text, values, name);
      },
    };
    const activity = createSessionActivity(counting, noTimer);
    const [a, b] = [await newSession(), await newSession()];
    activity.seen(a, minutes(3));
    activity.seen(a, minutes(5));
    activity.seen(a, minutes(4)); // out of order: the latest stays
    activity.seen(b, minutes(2));
    expect(statements).toEqual([]);
    expect(activity.heldFor(a)).toEqual(minutes(5));
    expect(await lastUsed(a)).toEqual(t0);

    await activity.flush();
    expect(statements).toEqual(["sessions_record_use"]);
    expect(await lastUsed(a)).toEqual(minutes(5));
    expect(await lastUsed(b)).toEqual(minutes(2));
    expect(activity.heldFor(a)).toBeUndefined();
    // Nothing held: no statement.
    await activity.flush();
    expect(statements).toHaveLength(1);
    await activity.close();
  });

  it("never moves a session's time back (another process wrote a later one)", async () => {
    const session = await newSession();
    const other = createSessionActivity(target.db.sql, noTimer);
    const mine = createSessionActivity(target.db.sql, noTimer);
    other.seen(session, minutes(9));
    await other.close();
    mine.seen(session, minutes(7));
    await mine.close();
    expect(await lastUsed(session)).toEqual(minutes(9));
  });

  it("keeps the times of a write that failed for the next one", async () => {
    const session = await newSession();
    let fail = true;
    const errors: unknown[] = [];
    const flaky: SqlExecutor = {
      ...target.db.sql,
      query: (text, values, name) =>
        fail ? Promise.reject(new Error("connection lost")) : target.db.sql.query(text, values, name),
    };
    const activity = createSessionActivity(flaky, { ...noTimer, onError: (error) => errors.push(error) });
    activity.seen(session, minutes(6));
    await activity.flush();
    expect(errors).toHaveLength(1);
    expect(activity.heldFor(session)).toEqual(minutes(6));
    fail = false;
    await activity.close();
    expect(await lastUsed(session)).toEqual(minutes(6));
  });
});
