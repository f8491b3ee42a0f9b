import { createMemoryPush } from "@agora/adapters/push/memory-push";
import { onPostgres } from "@agora/db/test/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type TestUser } from "../../../test/harness";

type ErrorBody = { error: { code: string; message: string } };
type SessionBody = { data: { access_token: string; refresh_token: string } };
type ListedSession = {
  id: string;
  created_at: string;
  last_used_at: string;
  platform: string | null;
  user_agent: string | null;
  address_hint: string | null;
  current: boolean;
};
type ListBody = { data: ListedSession[] };

describe("the caller's sessions: list, end one, end the others, change the password", () => {
  let h: Harness;
  const push = createMemoryPush();

  beforeAll(async () => {
    // TRUST_PROXY: the in-process requests name their client address in X-Forwarded-For.
    h = await createHarness({ seed: false, push, config: { trustProxy: true } });
  });
  afterAll(async () => {
    await h?.close();
  });

  /** A sign-in through the two steps, as a client at `address` on `platform` sends it. */
  const signInThrough = async (
    user: TestUser,
    client: { address: string; platform?: string; userAgent?: string },
  ): Promise<{ accessToken: string; refreshToken: string }> => {
    const headers = {
      "x-forwarded-for": client.address,
      ...(client.userAgent ? { "user-agent": client.userAgent } : {}),
    };
    const started = await h.post(
      "/api/v1/auth/login",
      { email: user.email, password: user.password },
      { headers },
    );
    expect(started.status).toBe(202);
    const verified = await h.post<SessionBody>(
      "/api/v1/auth/login/verify",
      {
        email: user.email,
        code: h.lastCode(user.email),
        ...(client.platform ? { platform: client.platform } : {}),
      },
      { headers },
    );
    expect(verified.status).toBe(200);
    // The next sign-in's code is past the cooldown of this one.
    h.clock.advance(61_000);

    return { accessToken: verified.body.data.access_token, refreshToken: verified.body.data.refresh_token };
  };

  const list = (token: string) => h.get<ListBody & ErrorBody>("/api/v1/auth/sessions", { token });
  const me = (token: string) => h.get<ErrorBody>("/api/v1/auth/me", { token });

  describe("GET /api/v1/auth/sessions", () => {
    it("lists each sign-in with its platform, User-Agent and network (never the address), the caller's marked current", async () => {
      const user = await h.createUser();
      const phone = await signInThrough(user, {
        address: "203.0.113.77",
        platform: "ios",
        userAgent: "Agora/2.3 (iPhone; iOS 18.1)",
      });
      const laptop = await signInThrough(user, { address: "2001:db8:85a3:8d3:1319:8a2e:370:7348" });

      const res = await list(laptop.accessToken);
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(2);
      const [first, second] = res.body.data;
      // The caller's session is in use now: it comes first.
      expect(first).toMatchObject({
        platform: null,
        user_agent: null,
        address_hint: "2001:db8:85a3::/48",
        current: true,
      });
      expect(second).toMatchObject({
        platform: "ios",
        user_agent: "Agora/2.3 (iPhone; iOS 18.1)",
        address_hint: "203.0.113.0/24",
        current: false,
      });
      expect(Object.keys(first ?? {}).sort()).toEqual(
        ["address_hint", "created_at", "current", "id", "last_used_at", "platform", "user_agent"].sort(),
      );
      expect(res.text).not.toContain("203.0.113.77");
      expect(res.text).not.toContain("1319:8a2e");
      // Kept to the minute.
      expect(new Date(first?.last_used_at ?? "").getUTCSeconds()).toBe(0);
      expect(new Date(first?.last_used_at ?? "").getUTCMilliseconds()).toBe(0);

      // The phone's own view marks the phone.
      const fromPhone = await list(phone.accessToken);
      expect(fromPhone.body.data.find((session) => session.current)?.platform).toBe("ios");
    });

    it("shows a session's last use to the minute without writing it per request, and writes it once a minute", async () => {
      const user = await h.createUser();
      const phone = await signInThrough(user, { address: "198.51.100.1", platform: "android" });
      const laptop = await signInThrough(user, { address: "198.51.100.2", platform: "web" });
      const phoneId = (await list(phone.accessToken)).body.data.find((session) => session.current)?.id;
      const stored = async () => {
        const { rows } = await h.db.sql.query<{ last_used_at: Date }>(
          "SELECT last_used_at FROM sessions WHERE id = $1",
          [phoneId],
        );

        return rows[0]?.last_used_at;
      };
      const signedInAt = await stored();

      h.clock.advance(5 * 60_000);
      expect((await me(phone.accessToken)).status).toBe(200);
      // Not written by the request: the row still says sign-in.
      expect(await stored()).toEqual(signedInAt);
      // This process holds the use: the list shows it, to the minute.
      const shown = (await list(laptop.accessToken)).body.data.find((session) => session.id === phoneId);
      const minute = Math.floor(h.clock.now().getTime() / 60_000) * 60_000;
      expect(new Date(shown?.last_used_at ?? "").getTime()).toBe(minute);

      // The minute's write: one statement for every session held.
      await h.runtime.sessionActivity.flush();
      expect((await stored())?.getTime()).toBe(h.clock.now().getTime());
    });

    it("leaves out ended sessions and other users' sessions", async () => {
      const user = await h.createUser();
      const other = await h.signIn();
      const a = await signInThrough(user, { address: "192.0.2.10" });
      const b = await signInThrough(user, { address: "192.0.2.11" });
      expect((await h.post("/api/v1/auth/logout", { refresh_token: a.refreshToken })).status).toBe(200);
      const res = await list(b.accessToken);
      expect(res.body.data.map((session) => session.current)).toEqual([true]);
      expect(res.body.data.map((session) => session.id)).not.toContain(other.sessionId);
    });

    it("is 401 without a token", async () => {
      expect((await h.get<ErrorBody>("/api/v1/auth/sessions")).status).toBe(401);
    });
  });

  describe("DELETE /api/v1/auth/sessions/{id}", () => {
    it("ends the session: its access token is 401 at once, its refresh token is dead, its phone gets no pushes", async () => {
      const user = await h.createUser();
      const lost = await signInThrough(user, { address: "192.0.2.20", platform: "ios" });
      const kept = await signInThrough(user, { address: "192.0.2.21", platform: "android" });
      expect(
        (
          await h.post(
            "/api/v1/devices",
            { token: "lost-phone", platform: "ios" },
            { token: lost.accessToken },
          )
        ).status,
      ).toBe(201);
      expect(
        (
          await h.post(
            "/api/v1/devices",
            { token: "kept-phone", platform: "android" },
            { token: kept.accessToken },
          )
        ).status,
      ).toBe(201);
      const lostId = (await list(lost.accessToken)).body.data.find((session) => session.current)?.id ?? "";

      const ended = await h.delete<{ data: { id: string; status: string } }>(
        `/api/v1/auth/sessions/${lostId}`,
        {
          token: kept.accessToken,
        },
      );
      expect(ended.status).toBe(200);
      expect(ended.body.data).toEqual({ id: lostId, status: "ended" });

      expect((await me(lost.accessToken)).status).toBe(401);
      const refreshed = await h.post<ErrorBody>("/api/v1/auth/refresh", { refresh_token: lost.refreshToken });
      expect(refreshed.status).toBe(401);
      expect(refreshed.body.error.code).toBe("invalid_refresh_token");
      expect(await h.runtime.notifications.devices.findTokensByUser(user.id)).toEqual(["kept-phone"]);
      expect((await me(kept.accessToken)).status).toBe(200);
      expect((await list(kept.accessToken)).body.data.map((session) => session.current)).toEqual([true]);

      // A retry answers the same, and changes nothing more.
      const again = await h.delete(`/api/v1/auth/sessions/${lostId}`, { token: kept.accessToken });
      expect(again.status).toBe(200);
    });

    it("is 404 for another user's session, an unknown id or a malformed one, and ends nothing", async () => {
      const owner = await h.signIn();
      const stranger = await h.signIn();
      for (const id of [owner.sessionId, "01935c2e-7f3a-7b41-9c2d-3e4f5a6b7c8d", "not-a-session"]) {
        const res = await h.delete<ErrorBody>(`/api/v1/auth/sessions/${id}`, { token: stranger.accessToken });
        expect(res.status, id).toBe(404);
        expect(res.body.error.code).toBe("not_found");
      }
      expect((await me(owner.accessToken)).status).toBe(200);
    });

    it("ends the caller's own session when asked: a sign-out", async () => {
      const s = await h.signIn();
      expect((await h.delete(`/api/v1/auth/sessions/${s.sessionId}`, { token: s.accessToken })).status).toBe(
        200,
      );
      expect((await me(s.accessToken)).status).toBe(401);
    });
  });

  describe("POST /api/v1/auth/sessions/revoke-others", () => {
    it("ends every session but the caller's and answers how many; a repeat ends none", async () => {
      const s = await h.signIn();
      const others = [await h.openSession(s.user), await h.openSession(s.user), await h.openSession(s.user)];
      const stranger = await h.signIn();
      const res = await h.post<{ data: { ended: number } }>(
        "/api/v1/auth/sessions/revoke-others",
        undefined,
        {
          token: s.accessToken,
        },
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ ended: 3 });
      for (const other of others) {
        expect((await me(other.accessToken)).status).toBe(401);
      }
      expect((await me(s.accessToken)).status).toBe(200);
      expect((await me(stranger.accessToken)).status).toBe(200);
      expect((await list(s.accessToken)).body.data.map((session) => session.id)).toEqual([s.sessionId]);

      const repeat = await h.post<{ data: { ended: number } }>(
        "/api/v1/auth/sessions/revoke-others",
        undefined,
        {
          token: s.accessToken,
        },
      );
      expect(repeat.body.data).toEqual({ ended: 0 });
    });
  });

  describe("POST /api/v1/auth/password", () => {
    const change = (token: string, body: Record<string, unknown>, address = "192.0.2.50") =>
      h.post<{ data: { status: string; sessions_ended: number } } & ErrorBody>(
        "/api/v1/auth/password",
        body,
        {
          token,
          headers: { "x-forwarded-for": address },
        },
      );

    it("changes the password, ends every other session, keeps the caller's, and mails the owner", async () => {
      const s = await h.signIn();
      const other = await h.openSession(s.user);
      const res = await change(s.accessToken, {
        current_password: s.user.password,
        new_password: "a brand new passphrase",
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ status: "password_changed", sessions_ended: 1 });
      expect((await me(other.accessToken)).status).toBe(401);
      expect((await me(s.accessToken)).status).toBe(200);

      const old = await h.post<ErrorBody>("/api/v1/auth/login", {
        email: s.user.email,
        password: s.user.password,
      });
      expect(old.status).toBe(401);
      const fresh = await h.post("/api/v1/auth/login", {
        email: s.user.email,
        password: "a brand new passphrase",
      });
      expect(fresh.status).toBe(202);

      await h.runOutboxOnce();
      const notice = h.mails?.sent.find(
        (mail) => mail.to === s.user.email && mail.subject === "Your Agora password was changed",
      );
      expect(notice?.text).toContain("One other session was signed out.");
      expect(notice?.text).not.toContain("a brand new passphrase");

      // A retry of the same request (its answer lost): done already, nothing more ended or mailed.
      const mailsBefore = h.mails?.sent.length;
      const retry = await change(s.accessToken, {
        current_password: s.user.password,
        new_password: "a brand new passphrase",
      });
      expect(retry.status).toBe(200);
      expect(retry.body.data).toEqual({ status: "password_changed", sessions_ended: 0 });
      await h.runOutboxOnce();
      expect(h.mails?.sent.length).toBe(mailsBefore);
    });

    it("is 401 invalid_credentials for a wrong current password, changes nothing, and counts toward the sign-in guessing limit", async () => {
      const limited = await createHarness({
        seed: false,
        config: { trustProxy: true, loginFailuresPerClient: 3, loginFailureNoticePerEmail: 3 },
      });
      try {
        const s = await limited.signIn();
        const other = await limited.openSession(s.user);
        const wrong = (address: string) =>
          limited.post<ErrorBody>(
            "/api/v1/auth/password",
            { current_password: "not the password", new_password: "whatever it would be" },
            { token: s.accessToken, headers: { "x-forwarded-for": address } },
          );
        for (let i = 0; i < 3; i += 1) {
          const res = await wrong("192.0.2.60");
          expect(res.status, `try ${i}`).toBe(401);
          expect(res.body.error.code).toBe("invalid_credentials");
        }
        // The fourth from that client is refused before any check, as a sign-in would be.
        const refused = await wrong("192.0.2.60");
        expect(refused.status).toBe(429);
        expect(refused.body.error.code).toBe("rate_limited");
        // The guesses counted for the address's sign-in from that client too.
        const signIn = await limited.post<ErrorBody>(
          "/api/v1/auth/login",
          { email: s.user.email, password: s.user.password },
          { headers: { "x-forwarded-for": "192.0.2.60" } },
        );
        expect(signIn.status).toBe(429);
        // Nothing changed: the session is still signed in, the other one too, the password too.
        expect((await limited.get("/api/v1/auth/me", { token: s.accessToken })).status).toBe(200);
        expect((await limited.get("/api/v1/auth/me", { token: other.accessToken })).status).toBe(200);
        expect(
          (
            await limited.post(
              "/api/v1/auth/login",
              { email: s.user.email, password: s.user.password },
              { headers: { "x-forwarded-for": "192.0.2.61" } },
            )
          ).status,
        ).toBe(202);
        // Three wrong ones mailed the owner the wrong-password notice.
        await limited.runOutboxOnce();
        expect(
          limited.mails?.sent.some(
            (mail) => mail.to === s.user.email && mail.subject.startsWith("Many wrong passwords"),
          ),
        ).toBe(true);
      } finally {
        await limited.close();
      }
    });

    it("answers 422 with field details for a new password outside 8-128 characters, and changes nothing", async () => {
      const s = await h.signIn();
      const res = await h.post<{ error: { code: string; details: Array<{ path: string }> } }>(
        "/api/v1/auth/password",
        { current_password: s.user.password, new_password: "short" },
        { token: s.accessToken },
      );
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe("validation_failed");
      expect(res.body.error.details.map((detail) => detail.path)).toEqual(["new_password"]);
      expect(
        (await h.post("/api/v1/auth/login", { email: s.user.email, password: s.user.password })).status,
      ).toBe(202);
    });
  });

  describe("a new sign-in's notice", () => {
    const noticesTo = (email: string) =>
      h.mails?.sent.filter(
        (mail) => mail.to === email && mail.subject === "New sign-in to your Agora account",
      ) ?? [];

    it("mails the owner once for a platform and network not seen in 90 days, never for the first sign-in", async () => {
      const user = await h.createUser();
      await signInThrough(user, { address: "203.0.113.5", platform: "ios" });
      await h.runOutboxOnce();
      expect(noticesTo(user.email)).toHaveLength(0);

      // The same phone on the same network: no news.
      await signInThrough(user, { address: "203.0.113.200", platform: "ios" });
      await h.runOutboxOnce();
      expect(noticesTo(user.email)).toHaveLength(0);

      // Another network.
      await signInThrough(user, {
        address: "198.51.100.9",
        platform: "ios",
        userAgent: "Agora/2.3\tTab\u00adx",
      });
      await h.runOutboxOnce();
      const [notice] = noticesTo(user.email);
      expect(notice?.text).toContain("198.51.100.0/24");
      expect(notice?.text).toContain("an iPhone or iPad");
      expect(notice?.text).not.toContain("198.51.100.9");
      expect(notice?.text).toContain("Account > Sessions");
      // Control and format characters are not kept (a header can carry a tab and a soft hyphen).
      expect(notice?.text).toContain("Agora/2.3Tabx");

      // 91 days on, the first network is news again.
      h.clock.advance(91 * 24 * 3600_000);
      await signInThrough(user, { address: "203.0.113.5", platform: "ios" });
      await h.runOutboxOnce();
      expect(noticesTo(user.email)).toHaveLength(2);
    });
  });
});

describe.skipIf(!onPostgres)("ending sessions under races (PostgreSQL only: parallel connections)", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness({ seed: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("ends each session once when revoke-others and single ends run in parallel: every other session ends, the caller's stays", async () => {
    const s = await h.signIn();
    const others = await Promise.all(Array.from({ length: 8 }, () => h.openSession(s.user)));
    const answers = await Promise.all([
      h.post<{ data: { ended: number } }>("/api/v1/auth/sessions/revoke-others", undefined, {
        token: s.accessToken,
      }),
      h.post<{ data: { ended: number } }>("/api/v1/auth/sessions/revoke-others", undefined, {
        token: s.accessToken,
      }),
      ...others.map((other) =>
        h.delete(`/api/v1/auth/sessions/${other.sessionId}`, { token: s.accessToken }),
      ),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const { rows } = await h.db.sql.query<{ live: number; revocations: number }>(
      `SELECT count(*) FILTER (WHERE revoked_at IS NULL)::int AS live,
              count(*) FILTER (WHERE revoked_at IS NOT NULL)::int AS revocations
         FROM sessions WHERE user_id = $1`,
      [s.user.id],
    );
    expect(rows[0]).toEqual({ live: 1, revocations: 8 });
    const [first, second] = answers as Array<{ body: { data: { ended: number } } }>;
    // The two bulk ends together ended at most the eight, never one twice.
    expect((first?.body.data.ended ?? 0) + (second?.body.data.ended ?? 0)).toBeLessThanOrEqual(8);
  });
});
