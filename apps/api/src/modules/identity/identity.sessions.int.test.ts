import { createHash, createHmac } from "node:crypto";
import { onPostgres } from "@agora/db/test/databases";
import { deriveKey, KEY_PURPOSES } from "@agora/domain/common/derived-keys";
import { addRefreshToken } from "@agora/domain/identity/issue-session";
import { jwtVerify, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../test/harness";

type ErrorBody = { error: { code: string } };
type SessionBody = { data: { access_token: string; refresh_token: string } };

describe("sessions: refresh, logout and the current user", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  const refresh = (refreshToken: string) =>
    h.post<SessionBody & ErrorBody>("/api/v1/auth/refresh", { refresh_token: refreshToken });
  const me = (accessToken: string) => h.get<ErrorBody>("/api/v1/auth/me", { token: accessToken });

  describe("POST /api/v1/auth/refresh", () => {
    it("ends a session 90 days after sign-in however often it is refreshed (rotation does not extend it)", async () => {
      const s = await h.signIn();
      const day = 24 * 3600_000;
      let token = s.refreshToken;
      for (let i = 0; i < 3; i += 1) {
        h.clock.advance(29 * day);
        const res = await refresh(token);
        expect(res.status, `refresh ${i}`).toBe(200);
        token = res.body.data.refresh_token;
      }
      // Day 87: the new refresh token expires with the session, on day 90, not 30 days later.
      const { rows } = await h.db.sql.query<{ expires_at: Date; created_at: Date }>(
        `SELECT rt.expires_at, s.created_at FROM refresh_tokens rt JOIN sessions s ON s.id = rt.session_id
          WHERE s.id = $1 ORDER BY rt.created_at DESC LIMIT 1`,
        [s.sessionId],
      );
      const row = rows[0];
      expect(row && row.expires_at.getTime() - row.created_at.getTime()).toBe(90 * day);
      h.clock.advance(3 * day);
      const late = await refresh(token);
      expect(late.status).toBe(401);
      expect(late.body.error.code).toBe("invalid_refresh_token");
    });

    it("ends the session's access tokens at its absolute end too, however long they would still run", async () => {
      const s = await h.signIn();
      const day = 24 * 3600_000;
      let token = s.refreshToken;
      for (let i = 0; i < 3; i += 1) {
        h.clock.advance(29 * day);
        token = (await refresh(token)).body.data.refresh_token;
      }
      // Five minutes before the end (day 90): a fresh access token, good for 15 minutes by itself.
      h.clock.advance(3 * day - 5 * 60_000);
      const last = await refresh(token);
      expect(last.status).toBe(200);
      expect((await me(last.body.data.access_token)).status).toBe(200);
      h.clock.advance(5 * 60_000);
      const ended = await me(last.body.data.access_token);
      expect(ended.status).toBe(401);
      expect(ended.body.error.code).toBe("unauthorized");
    });

    it("rotates: new tokens that work, the old refresh token spent", async () => {
      const s = await h.signIn();
      const res = await refresh(s.refreshToken);
      expect(res.status).toBe(200);
      expect(res.body.data.refresh_token).not.toBe(s.refreshToken);
      expect((await me(res.body.data.access_token)).status).toBe(200);
      expect((await refresh(res.body.data.refresh_token)).status).toBe(200);
    });

    it("gives a spent token presented again within the grace window the first rotation's answer: the same token pair, no second branch", async () => {
      const s = await h.signIn();
      const first = await refresh(s.refreshToken);
      expect(first.status).toBe(200);
      h.clock.advance(5_000);
      const second = await refresh(s.refreshToken);
      expect(second.status).toBe(200);
      expect(second.body.data.refresh_token).toBe(first.body.data.refresh_token);
      expect(second.body.data.access_token).toBe(first.body.data.access_token);
      expect((second.body.data as { expires_in?: number }).expires_in).toBe(895);
      const { rows } = await h.db.sql.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM refresh_tokens WHERE session_id = $1",
        [s.sessionId],
      );
      expect(rows[0]?.n).toBe(2);
      // The one successor rotates once; the chain goes on from there.
      const next = await refresh(first.body.data.refresh_token);
      expect(next.status).toBe(200);
      expect((await me(next.body.data.access_token)).status).toBe(200);
      expect((await refresh(next.body.data.refresh_token)).status).toBe(200);
    });

    describe('the key of the successors (docs/accounts.md, "Keys from TOKEN_SECRET")', () => {
      /** A token's successor under a key, as rotation derives it. */
      const successorUnder = (key: Buffer | string, parent: string) =>
        createHmac("sha256", key).update(`refresh-successor:${parent}`).digest("base64url");
      /** The key successors were derived under before the derived key (a rotation before the deploy). */
      const legacyKey = () => `${h.config.tokenSecret}:refresh-successor`;

      it("derives a successor under the derived key, not the legacy one", async () => {
        const s = await h.signIn();
        const res = await refresh(s.refreshToken);
        expect(res.status).toBe(200);
        const derived = deriveKey(h.config.tokenSecret, KEY_PURPOSES.refreshSuccessors);
        expect(res.body.data.refresh_token).toBe(successorUnder(derived, s.refreshToken));
        expect(res.body.data.refresh_token).not.toBe(successorUnder(legacyKey(), s.refreshToken));
      });

      it("gives a replay inside the grace the successor a rotation under the legacy key issued (the transition)", async () => {
        const s = await h.signIn();
        const legacySuccessor = successorUnder(legacyKey(), s.refreshToken);
        // The rotation as a process before the deploy made it: the parent spent, the successor stored.
        const { identity } = h.runtime;
        const now = h.clock.now();
        await identity.uow.run(async (tx) => {
          const parentHash = createHash("sha256").update(s.refreshToken).digest("hex");
          const parent = await tx.sessions.findRefreshTokenForUpdate(parentHash);
          await tx.sessions.markRotated(parent?.id ?? "", now);
          await addRefreshToken(identity, tx, { id: s.sessionId, createdAt: now }, now, legacySuccessor);
        });
        h.clock.advance(5_000);

        const replay = await refresh(s.refreshToken);
        expect(replay.status).toBe(200);
        expect(replay.body.data.refresh_token).toBe(legacySuccessor);
        expect((await me(replay.body.data.access_token)).status).toBe(200);
        // The session goes on from it, under the derived key, with no second branch.
        const next = await refresh(legacySuccessor);
        expect(next.status).toBe(200);
        const derived = deriveKey(h.config.tokenSecret, KEY_PURPOSES.refreshSuccessors);
        expect(next.body.data.refresh_token).toBe(successorUnder(derived, legacySuccessor));
        const { rows } = await h.db.sql.query<{ n: number; revoked: boolean }>(
          `SELECT (SELECT count(*)::int FROM refresh_tokens WHERE session_id = s.id) AS n,
                  s.revoked_at IS NOT NULL AS revoked
             FROM sessions s WHERE s.id = $1`,
          [s.sessionId],
        );
        expect(rows[0]).toEqual({ n: 3, revoked: false });
      });
    });

    it("revokes the whole family when the parent is replayed after its window, though its successor was replayed inside one", async () => {
      const s = await h.signIn();
      const first = await refresh(s.refreshToken);
      h.clock.advance(9_000);
      expect((await refresh(s.refreshToken)).body.data.refresh_token).toBe(first.body.data.refresh_token);
      h.clock.advance(2_000);
      const late = await refresh(s.refreshToken);
      expect(late.status).toBe(401);
      expect(late.body.error.code).toBe("invalid_refresh_token");
      expect((await refresh(first.body.data.refresh_token)).status).toBe(401);
      expect((await me(first.body.data.access_token)).status).toBe(401);
    });

    it("treats reuse after the grace window as theft: 401 and the whole chain revoked, newest token too", async () => {
      const s = await h.signIn();
      const first = await refresh(s.refreshToken);
      const newest = await refresh(first.body.data.refresh_token);
      h.clock.advance(11_000);
      const reused = await refresh(s.refreshToken);
      expect(reused.status).toBe(401);
      expect(reused.body.error.code).toBe("invalid_refresh_token");
      expect((await refresh(newest.body.data.refresh_token)).status).toBe(401);
      expect((await me(newest.body.data.access_token)).status).toBe(401);
      expect((await me(s.accessToken)).status).toBe(401);
    });

    it("answers 401 for an unknown token and after the refresh token's 30 days", async () => {
      expect((await refresh("no-such-token")).status).toBe(401);
      const s = await h.signIn();
      h.clock.advance(30 * 24 * 3600_000 + 1000);
      const expired = await refresh(s.refreshToken);
      expect(expired.status).toBe(401);
      expect(expired.body.error.code).toBe("invalid_refresh_token");
    });

    it("answers 401 once the account is suspended", async () => {
      const s = await h.signIn();
      await h.runtime.identity.repos.users.setStatus(s.user.id, "suspended", h.clock.now());
      expect((await refresh(s.refreshToken)).status).toBe(401);
    });

    it("answers 422 without a refresh token", async () => {
      expect((await h.post("/api/v1/auth/refresh", {})).status).toBe(422);
      expect((await h.post("/api/v1/auth/refresh", { refresh_token: "" })).status).toBe(422);
    });
  });

  describe.skipIf(!onPostgres)("POST /api/v1/auth/refresh under real concurrency (PostgreSQL only)", () => {
    it("gives two parallel refreshes with one token the same successor and access token, and revokes nothing", async () => {
      for (let round = 0; round < 5; round += 1) {
        const s = await h.signIn();
        const results = await Promise.all([refresh(s.refreshToken), refresh(s.refreshToken)]);
        expect(results.map((r) => r.status)).toEqual([200, 200]);
        const [a, b] = results;
        expect(a?.body.data.refresh_token, `round ${round}`).toBe(b?.body.data.refresh_token);
        expect(a?.body.data.access_token).toBe(b?.body.data.access_token);
        const { rows } = await h.db.sql.query<{ tokens: number; revoked: boolean }>(
          `SELECT (SELECT count(*)::int FROM refresh_tokens WHERE session_id = s.id) AS tokens,
                  s.revoked_at IS NOT NULL AS revoked
             FROM sessions s WHERE s.id = $1`,
          [s.sessionId],
        );
        expect(rows[0]).toEqual({ tokens: 2, revoked: false });
        expect((await me(a?.body.data.access_token ?? "")).status).toBe(200);
        expect((await refresh(a?.body.data.refresh_token ?? "")).status).toBe(200);
      }
    });
  });

  describe("POST /api/v1/auth/logout", () => {
    it("revokes the session: its refresh and access tokens stop working", async () => {
      const s = await h.signIn();
      const res = await h.post("/api/v1/auth/logout", { refresh_token: s.refreshToken });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ data: { status: "logged_out" } });
      expect((await refresh(s.refreshToken)).status).toBe(401);
      expect((await me(s.accessToken)).status).toBe(401);
      const again = await h.post<ErrorBody>("/api/v1/auth/logout", { refresh_token: s.refreshToken });
      expect(again.status).toBe(401);
      expect(again.body.error.code).toBe("invalid_refresh_token");
    });

    it("leaves the user's other sessions alone", async () => {
      const phone = await h.signIn();
      const laptop = await h.openSession(phone.user);
      expect((await h.post("/api/v1/auth/logout", { refresh_token: phone.refreshToken })).status).toBe(200);
      expect((await me(phone.accessToken)).status).toBe(401);
      expect((await me(laptop.accessToken)).status).toBe(200);
      expect((await refresh(laptop.refreshToken)).status).toBe(200);
    });

    it("answers 401 for an unknown token and 422 without one", async () => {
      expect((await h.post("/api/v1/auth/logout", { refresh_token: "nope" })).status).toBe(401);
      expect((await h.post("/api/v1/auth/logout", {})).status).toBe(422);
    });
  });

  describe("GET /api/v1/auth/me and bearer handling", () => {
    it("answers the user: id, username, display_name, email, role, status, created_at, media (the avatar)", async () => {
      const s = await h.signIn({ role: "provider" });
      const res = await h.get<{ data: Record<string, unknown> }>("/api/v1/auth/me", { token: s.accessToken });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.data).sort()).toEqual(
        ["created_at", "display_name", "email", "id", "media", "role", "status", "username"].sort(),
      );
      expect(res.body.data).toMatchObject({
        id: s.user.id,
        email: s.user.email,
        role: "provider",
        status: "active",
        media: [],
      });
    });

    it("answers 401 without a token, with a malformed header, a forged or an expired token", async () => {
      const s = await h.signIn();
      const [header, payload] = s.accessToken.split(".");
      const forged = `${header}.${payload}.${"A".repeat(43)}`;
      const cases: Record<string, string>[] = [
        {},
        { authorization: "Basic abc" },
        { authorization: "Bearer" },
        { authorization: `Bearer ${forged}` },
        { authorization: "Bearer not.a.jwt" },
      ];
      for (const headers of cases) {
        const res = await h.get<ErrorBody>("/api/v1/auth/me", { headers });
        expect(res.status, JSON.stringify(headers)).toBe(401);
        expect(res.body.error.code).toBe("unauthorized");
      }
      h.clock.advance(15 * 60_000 + 1000);
      expect((await me(s.accessToken)).status).toBe(401);
    });

    describe('the key of the access tokens (docs/accounts.md, "Keys from TOKEN_SECRET")', () => {
      /** An access token for the session signed under `key`, valid 15 minutes from now. */
      const tokenUnder = (key: Buffer | string, s: { user: { id: string }; sessionId: string }) => {
        const issuedAt = Math.floor(h.clock.now().getTime() / 1000);

        return new SignJWT({ role: "member", sid: s.sessionId })
          .setProtectedHeader({ alg: "HS256", typ: "JWT" })
          .setSubject(s.user.id)
          .setIssuer("agora")
          .setAudience("agora-api")
          .setIssuedAt(issuedAt)
          .setExpirationTime(issuedAt + 900)
          .sign(typeof key === "string" ? new TextEncoder().encode(key) : new Uint8Array(key));
      };

      it("signs access tokens under the derived key, not the raw secret", async () => {
        const s = await h.signIn();
        const derived = new Uint8Array(deriveKey(h.config.tokenSecret, KEY_PURPOSES.accessTokens));
        const verified = await jwtVerify(s.accessToken, derived, { currentDate: h.clock.now() });
        expect(verified.payload.sub).toBe(s.user.id);
        await expect(
          jwtVerify(s.accessToken, new TextEncoder().encode(h.config.tokenSecret), {
            currentDate: h.clock.now(),
          }),
        ).rejects.toThrow();
      });

      it("still takes one signed under the legacy key (the raw secret: issued before the deploy) until its exp", async () => {
        const s = await h.signIn();
        const legacy = await tokenUnder(h.config.tokenSecret, s);
        expect((await me(legacy)).status).toBe(200);
        expect((await me(await tokenUnder(`${h.config.tokenSecret}:access-tokens`, s))).status).toBe(401);
        h.clock.advance(15 * 60_000 + 1000);
        expect((await me(legacy)).status).toBe(401);
      });
    });

    it("takes the role from the account on every request, not from the token", async () => {
      const s = await h.signIn();
      await h.runtime.identity.repos.users.setRole(s.user.id, "accountant", h.clock.now());
      const res = await h.get<{ data: { role: string } }>("/api/v1/auth/me", { token: s.accessToken });
      expect(res.body.data.role).toBe("accountant");
    });
  });

  describe("PATCH /api/v1/auth/me", () => {
    it("changes username and display name", async () => {
      const s = await h.signIn();
      const res = await h.patch<{ data: Record<string, unknown> }>(
        "/api/v1/auth/me",
        { username: `renamed_${s.user.id.slice(-6)}`, display_name: "  Renamed  " },
        { token: s.accessToken },
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        username: `renamed_${s.user.id.slice(-6)}`,
        display_name: "Renamed",
      });
    });

    it("answers 409 username_taken for another account's name in any case, and keeps your own", async () => {
      const other = await h.createUser();
      const s = await h.signIn();
      const taken = await h.patch<ErrorBody>(
        "/api/v1/auth/me",
        { username: other.username.toUpperCase(), display_name: "X" },
        { token: s.accessToken },
      );
      expect(taken.status).toBe(409);
      expect(taken.body.error.code).toBe("username_taken");
      const own = await h.patch(
        "/api/v1/auth/me",
        { username: s.user.username, display_name: "Same" },
        { token: s.accessToken },
      );
      expect(own.status).toBe(200);
    });

    it("answers 422 for a display name outside 1-100, a missing field, and 401 without a token", async () => {
      const s = await h.signIn();
      for (const body of [
        { username: s.user.username, display_name: "" },
        { username: s.user.username, display_name: "   " },
        { username: s.user.username, display_name: "x".repeat(101) },
        { display_name: "x" },
        { username: "ab", display_name: "x" },
      ]) {
        expect(
          (await h.patch("/api/v1/auth/me", body, { token: s.accessToken })).status,
          JSON.stringify(body),
        ).toBe(422);
      }
      expect((await h.patch("/api/v1/auth/me", { username: "abc", display_name: "x" })).status).toBe(401);
    });
  });

  describe("DELETE /api/v1/auth/me", () => {
    it("deletes the account: tokens fail at once, the email and username are free again, it is audited", async () => {
      const s = await h.signIn();
      const res = await h.delete("/api/v1/auth/me", { token: s.accessToken });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ data: { user_id: s.user.id, status: "deleted" } });
      expect((await me(s.accessToken)).status).toBe(401);
      expect((await refresh(s.refreshToken)).status).toBe(401);
      const again = await h.post("/api/v1/auth/register", {
        username: s.user.username,
        email: s.user.email,
        password: "another password",
      });
      expect(again.status).toBe(201);
      const { rows } = await h.db.sql.query<{ action: string }>(
        "SELECT action FROM audit_events WHERE target_id = $1",
        [s.user.id],
      );
      expect(rows.map((r) => r.action)).toEqual(["user.deleted"]);
    });

    it("answers 401 without a token", async () => {
      expect((await h.delete("/api/v1/auth/me")).status).toBe(401);
    });
  });
});

describe("a reuse grace longer than the access token's life", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness({ config: { accessTokenTtlSeconds: 30, refreshReuseGraceSeconds: 60 } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("gives a replay inside the grace the same refresh token and an access token that still works", async () => {
    const s = await h.signIn();
    const refresh = (token: string) =>
      h.post<SessionBody & { data: { expires_in: number } }>("/api/v1/auth/refresh", {
        refresh_token: token,
      });
    const first = await refresh(s.refreshToken);
    h.clock.advance(20_000);
    const early = await refresh(s.refreshToken);
    expect(early.body.data).toMatchObject({
      refresh_token: first.body.data.refresh_token,
      access_token: first.body.data.access_token,
      expires_in: 10,
    });
    h.clock.advance(25_000);
    const late = await refresh(s.refreshToken);
    expect(late.status).toBe(200);
    expect(late.body.data.refresh_token).toBe(first.body.data.refresh_token);
    expect(late.body.data.access_token).not.toBe(first.body.data.access_token);
    expect(late.body.data.expires_in).toBe(30);
    expect((await h.get("/api/v1/auth/me", { token: late.body.data.access_token })).status).toBe(200);
  });
});
