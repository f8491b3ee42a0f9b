import { uuidV7Ids } from "@agora/domain/common/ids";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSessionRepository } from "../src/repositories/identity/sessions.repository";
import { createRateLimiter } from "../src/repositories/rate-limits.repository";
import { createTestDatabase, type TestDatabase } from "./databases";

// The per-request check of a write-limited member route: the session check and the account's hit in
// one statement, counting exactly when the session is live and the caller's.
describe("findActiveActorCounting", () => {
  let target: TestDatabase;
  const userId = uuidV7Ids.next();
  const otherId = uuidV7Ids.next();
  const live = uuidV7Ids.next();
  const revoked = uuidV7Ids.next();
  const othersSession = uuidV7Ids.next();
  const windowSeconds = 3600;
  /** SESSION_MAX_AGE_SECONDS's default: every session here is younger. */
  const maxAge = 7_776_000;
  const count = (key: string, limit: number, now = new Date()) => ({ key, limit, windowSeconds, now });

  beforeAll(async () => {
    target = await createTestDatabase();
    await target.db.sql.query(
      `INSERT INTO users (id, email, username, display_name, password_hash, role, status, email_verified_at, created_at, updated_at)
       SELECT id, 'count-' || id || '@example.com', 'c' || replace(id::text, '-', ''), 'Counted', '', 'member', 'active', now(), now(), now()
         FROM unnest($1::uuid[]) AS t(id)`,
      [[userId, otherId]],
    );
    await target.db.sql.query(
      `INSERT INTO sessions (id, user_id, created_at, revoked_at)
       VALUES ($1, $4, now(), NULL), ($2, $4, now(), now()), ($3, $5, now(), NULL)`,
      [live, revoked, othersSession, userId, otherId],
    );
  });
  afterAll(async () => {
    await target?.dispose();
  });

  it("answers the live session's actor with each hit counted, past the limit refused", async () => {
    const sessions = createSessionRepository(target.db.sql);
    const key = `write:chat_messages:user:${userId}`;
    const first = await sessions.findActiveActorCounting(live, userId, count(key, 2), maxAge);
    const second = await sessions.findActiveActorCounting(live, userId, count(key, 2), maxAge);
    const third = await sessions.findActiveActorCounting(live, userId, count(key, 2), maxAge);
    expect(first).toMatchObject({ userId, role: "member", limit: { allowed: true, hits: 1 } });
    expect(second?.limit).toMatchObject({ allowed: true, hits: 2 });
    expect(third?.limit).toMatchObject({ allowed: false, hits: 3 });
    expect(third?.limit.retryAfterSeconds).toBeGreaterThan(windowSeconds - 60);
    // The same counter as RateLimiter.hit's: the two agree on every hit.
    const peeked = await createRateLimiter(target.db.sql).peek([key], windowSeconds, new Date());
    expect(peeked[0]?.hits).toBe(3);
  });

  it("counts nothing for a revoked session or another user's session", async () => {
    const sessions = createSessionRepository(target.db.sql);
    const key = `write:moments:user:${userId}`;
    expect(await sessions.findActiveActorCounting(revoked, userId, count(key, 5), maxAge)).toBeNull();
    const others = await sessions.findActiveActorCounting(othersSession, userId, count(key, 5), maxAge);
    expect(others?.userId).toBe(otherId);
    const peeked = await createRateLimiter(target.db.sql).peek([key], windowSeconds, new Date());
    expect(peeked[0]?.hits).toBe(0);
  });

  it("starts a new window once the last one is over", async () => {
    const sessions = createSessionRepository(target.db.sql);
    const key = `write:likes:user:${userId}`;
    const start = new Date("2026-01-01T00:00:00Z");
    await sessions.findActiveActorCounting(live, userId, count(key, 1, start), maxAge);
    const later = new Date(start.getTime() + windowSeconds * 1000);
    const next = await sessions.findActiveActorCounting(live, userId, count(key, 1, later), maxAge);
    expect(next?.limit).toMatchObject({ allowed: true, hits: 1 });
  });
});
