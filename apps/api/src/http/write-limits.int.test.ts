import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { operations } from "@agora/contracts/operations";
import { createTestDatabase, onPostgres, type TestDatabase } from "@agora/db/test/databases";
import { writeLimitDefaults } from "@agora/domain/common/write-limits";
import { eventually } from "@agora/testing/eventually";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../test/harness";
import { type ApiProcess, createMember, startProcess, TEST_TOKEN_SECRET } from "../../test/processes";

type ErrorBody = { error: { code: string } };

/** docs/safety.md, "Write limits". */
describe("write limits", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness({
      config: {
        writeLimitsPerHour: { ...writeLimitDefaults, moments: 3, likes: 2, reports: 0, searches: 2 },
      },
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  const as = (s: SignedIn) => ({ token: s.accessToken });
  const momentsOf = async (userId: string) =>
    Number(
      (
        await h.db.sql.query<{ n: string }>("SELECT count(*) AS n FROM moments WHERE author_id = $1", [
          userId,
        ])
      ).rows[0]?.n,
    );

  it("answers 429 rate_limited with Retry-After past the account's limit, with the RateLimit headers on every answer; nothing is created", async () => {
    const ada = await h.signIn();
    const remaining: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await h.post("/api/v1/community/moments", { body: `moment ${i}` }, as(ada));
      expect(res.status).toBe(201);
      expect(res.headers.get("ratelimit-limit")).toBe("3");
      remaining.push(res.headers.get("ratelimit-remaining") ?? "");
      expect(Number(res.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
      expect(Number(res.headers.get("ratelimit-reset"))).toBeLessThanOrEqual(3600);
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    const refused = await h.post<ErrorBody>("/api/v1/community/moments", { body: "one too many" }, as(ada));
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(await momentsOf(ada.user.id)).toBe(3);

    // Another account has its own counter; the kinds count apart (a like is not a moment).
    const bob = await h.signIn();
    expect((await h.post("/api/v1/community/moments", { body: "bob" }, as(bob))).status).toBe(201);

    // The window ends: the account may write again.
    h.clock.advance(3600 * 1000);
    const later = await h.openSession(ada.user);
    const again = await h.post("/api/v1/community/moments", { body: "an hour later" }, as(later));
    expect(again.status).toBe(201);
    expect(again.headers.get("ratelimit-remaining")).toBe("2");
  });

  it("counts a request once its session is confirmed: an ended session is 401 and counts nothing; invalid input counts", async () => {
    const ada = await h.signIn();
    const ended = await h.openSession(ada.user);
    await h.db.sql.query("UPDATE sessions SET revoked_at = now() WHERE id = $1", [ended.sessionId]);
    const refused = await h.post<ErrorBody>("/api/v1/community/moments", { body: "x" }, as(ended));
    expect(refused.status).toBe(401);
    expect(refused.headers.get("ratelimit-limit")).toBeNull();
    const invalid = await h.post<ErrorBody>("/api/v1/community/moments", { body: "" }, as(ada));
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get("ratelimit-remaining")).toBe("2");
    const created = await h.post("/api/v1/community/moments", { body: "counted second" }, as(ada));
    expect(created.status).toBe(201);
    expect(created.headers.get("ratelimit-remaining")).toBe("1");
  });

  it("counts each kind apart; a kind set to 0 is not limited (and sends no headers)", async () => {
    const ada = await h.signIn();
    const bob = await h.signIn();
    const moment = await h.post<{ data: { id: string } }>(
      "/api/v1/community/moments",
      { body: "x" },
      as(bob),
    );
    const like = () =>
      h.post<ErrorBody>(`/api/v1/community/moments/${moment.body.data.id}/like`, undefined, as(ada));
    expect((await like()).status).toBe(200);
    expect((await like()).status).toBe(200);
    const third = await like();
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe("rate_limited");
    const report = await h.post(
      `/api/v1/community/moments/${moment.body.data.id}/report`,
      { reason: "spam" },
      as(ada),
    );
    expect(report.status).toBe(201);
    expect(report.headers.get("ratelimit-limit")).toBeNull();
  });

  it("limits public search per client address, and bounds its offset (1000; beyond is 422)", async () => {
    const search = (query: string) => h.get<ErrorBody>(`/api/v1/listings${query}`);
    const deepest = await search("?offset=1000");
    expect(deepest.status).toBe(200);
    expect(deepest.headers.get("ratelimit-limit")).toBe("2");
    const tooDeep = await h.get<{ error: { code: string; details: { path: string }[] } }>(
      "/api/v1/listings?offset=1001",
    );
    expect(tooDeep.status).toBe(422);
    expect(tooDeep.body.error.details[0]?.path).toBe("offset");
    // Counted before the input is validated: the refusal carries the headers too.
    expect(tooDeep.headers.get("ratelimit-remaining")).toBe("0");
    const refused = await search("");
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limited");
    expect(refused.headers.get("retry-after")).not.toBeNull();
  });

  it("declares the limit of every write members repeat, and documents 429 and the headers on each", async () => {
    const limited = Object.fromEntries(
      operations.filter((op) => op.writeLimit !== undefined).map((op) => [op.operationId, op.writeLimit]),
    );
    expect(limited).toEqual({
      conversationsCreate: "conversations",
      messagesSend: "chat_messages",
      momentsCreate: "moments",
      momentsLike: "likes",
      momentCommentsCreate: "comments",
      momentsReport: "reports",
      reportsCreate: "reports",
      mediaUpload: "uploads",
      mediaConfirm: "media_confirmations",
      devicesRegister: "devices",
      meetingsCreate: "meetings",
      listingsList: "searches",
      authSessionsEnd: "account_security",
      authSessionsEndOthers: "account_security",
      authPasswordChange: "account_security",
      authEmailChange: "email_changes",
      momentsEdit: "content_changes",
      momentsDelete: "content_changes",
      momentsUnlike: "content_changes",
      commentsEdit: "content_changes",
      commentsDelete: "content_changes",
      usersMute: "mutes",
      usersUnmute: "mutes",
    });
    const doc = (
      await h.get<{
        paths: Record<
          string,
          Record<
            string,
            { operationId: string; responses: Record<string, { headers?: Record<string, unknown> }> }
          >
        >;
      }>("/api/v1/openapi.json")
    ).body;
    for (const methods of Object.values(doc.paths)) {
      for (const entry of Object.values(methods)) {
        if (!(entry.operationId in limited)) {
          continue;
        }
        expect(Object.keys(entry.responses), entry.operationId).toContain("429");
        const success = Object.entries(entry.responses).filter(([status]) => status.startsWith("2"));
        for (const [, response] of success) {
          expect(Object.keys(response.headers ?? {}).slice(0, 3)).toEqual([
            "RateLimit-Limit",
            "RateLimit-Remaining",
            "RateLimit-Reset",
          ]);
        }
      }
    }
  });
});

describe.skipIf(!onPostgres)("write limits across two API processes on one PostgreSQL", () => {
  let target: TestDatabase;
  let client: pg.Client;
  let dataDir: string;
  const apis: ApiProcess[] = [];

  beforeAll(async () => {
    target = await createTestDatabase();
    client = new pg.Client({ connectionString: target.url });
    await client.connect();
    dataDir = mkdtempSync(path.join(tmpdir(), "agora-write-limits-"));
    for (let i = 0; i < 2; i += 1) {
      apis.push(
        startProcess({
          APP_ENV: "development",
          DATABASE_URL: target.url ?? "",
          DATA_DIR: dataDir,
          TOKEN_SECRET: TEST_TOKEN_SECRET,
          HOST: "127.0.0.1",
          PORT: "0",
          LOG_LEVEL: "info",
          RATE_LIMIT_MOMENTS_PER_HOUR: "4",
          RATE_LIMIT_SEARCHES_PER_HOUR: "4",
        }),
      );
    }
  }, 120_000);
  afterAll(async () => {
    for (const api of apis) {
      api.child.kill("SIGTERM");
      await api.exited;
    }
    await client?.end();
    await target?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("holds one account to its limit whichever process answers", { timeout: 120_000 }, async () => {
    const origins = await Promise.all(
      apis.map((api) =>
        api.origin().catch((error: unknown) => {
          throw new Error(`${String(error)}\n${api.output()}`);
        }),
      ),
    );
    for (const origin of origins) {
      await eventually(async () => (await fetch(`${origin}/ready`)).status === 200 || undefined);
    }
    const member = await createMember(client);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const res = await fetch(`${origins[i % 2]}/api/v1/community/moments`, {
        method: "POST",
        headers: { authorization: `Bearer ${member.token}`, "content-type": "application/json" },
        body: JSON.stringify({ body: `moment ${i}` }),
      });
      statuses.push(res.status);
      if (res.status === 201) {
        expect(res.headers.get("ratelimit-remaining")).toBe(String(3 - i));
      }
    }
    expect(statuses).toEqual([201, 201, 201, 201, 429, 429]);
    const { rows } = await client.query<{ n: string }>(
      "SELECT count(*) AS n FROM moments WHERE author_id = $1",
      [member.id],
    );
    expect(Number(rows[0]?.n)).toBe(4);
  });

  it("holds a client address to its search limit across processes, within one flush interval of overshoot", {
    timeout: 120_000,
  }, async () => {
    const origins = await Promise.all(apis.map((api) => api.origin()));
    const key = "write:searches:ip:127.0.0.1";
    const stored = async () =>
      Number(
        (await client.query<{ hits: number }>("SELECT hits FROM rate_limits WHERE key = $1", [key])).rows[0]
          ?.hits ?? 0,
      );
    const search = async (origin: string | undefined) => (await fetch(`${origin}/api/v1/listings`)).status;
    // Counted in the process, added to PostgreSQL within a second (docs/safety.md, "Write limits").
    expect([await search(origins[0]), await search(origins[0]), await search(origins[0])]).toEqual([
      200, 200, 200,
    ]);
    await eventually(async () => (await stored()) === 3 || undefined);
    // The second process has not flushed yet: it judges by its own count (the bounded overshoot).
    expect(await search(origins[1])).toBe(200);
    await eventually(async () => (await stored()) === 4 || undefined);
    // Flushed, it judges by the shared count: the fifth search is refused.
    expect(await search(origins[1])).toBe(429);
    await eventually(async () => (await stored()) === 5 || undefined);
    // The first process learns the shared count at its next flush: from then on it refuses too.
    await search(origins[0]);
    await eventually(async () => (await stored()) === 6 || undefined);
    expect(await search(origins[0])).toBe(429);
  });
});
