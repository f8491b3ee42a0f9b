import { createHmac } from "node:crypto";
import { deriveKey, KEY_PURPOSES } from "@agora/domain/common/derived-keys";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type TestUser } from "../../../test/harness";

type ErrorBody = { error: { code: string; message: string } };
type SessionBody = {
  data: {
    access_token: string;
    refresh_token: string;
    token_type: string;
    expires_in: number;
    user: Record<string, unknown>;
  };
};

describe("sign-in by password and emailed code", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  const startLogin = (user: Pick<TestUser, "email" | "password">) =>
    h.post<ErrorBody>("/api/v1/auth/login", { email: user.email, password: user.password });

  describe("POST /api/v1/auth/login", () => {
    it("answers 202 code_sent, mails a sign-in code and creates no session", async () => {
      const user = await h.createUser();
      const res = await startLogin(user);
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ data: { status: "code_sent" } });
      expect(h.mails?.last(user.email)?.subject).toBe("Your Agora sign-in code");
      expect(h.lastCode(user.email)).toMatch(/^\d{6}$/);
      const { rows } = await h.db.sql.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM sessions WHERE user_id = $1",
        [user.id],
      );
      expect(rows[0]?.n).toBe(0);
    });

    it("accepts the email in any case and with spaces around it", async () => {
      const user = await h.createUser();
      const res = await startLogin({ email: `  ${user.email.toUpperCase()} `, password: user.password });
      expect(res.status).toBe(202);
    });

    it("answers the same 401 invalid_credentials for a wrong password and an unknown email", async () => {
      const user = await h.createUser();
      const wrong = await startLogin({ email: user.email, password: "not the password" });
      const unknown = await startLogin({ email: "nobody-at-all@example.com", password: "whatever it is" });
      for (const res of [wrong, unknown]) {
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe("invalid_credentials");
      }
      expect(wrong.body.error.message).toBe(unknown.body.error.message);
    });

    it("takes about as long for an unknown email as for a wrong password (a hash is verified either way)", async () => {
      const user = await h.createUser();
      const time = async (email: string) => {
        const started = performance.now();
        await startLogin({ email, password: "not the password" });

        return performance.now() - started;
      };
      await time("warm-up@example.com");
      const unknown: number[] = [];
      const wrong: number[] = [];
      // Interleaved, and enough of each for a median that one slow sample on a busy machine (the
      // other packages' tests run beside this one) does not move.
      for (let i = 0; i < 9; i += 1) {
        unknown.push(await time(`nobody${i}@example.com`));
        wrong.push(await time(user.email));
      }
      const median = (values: number[]) =>
        [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
      // Without the dummy verification an unknown email answers in well under a millisecond while a
      // wrong password costs an argon2 verification (~20 ms here).
      expect(median(unknown)).toBeGreaterThan(median(wrong) * 0.5);
      expect(median(unknown)).toBeLessThan(median(wrong) * 2);
    });

    it("answers 403 email_not_verified for the right password on a pending account", async () => {
      const user = await h.createUser({ status: "pending_verification" });
      const res = await startLogin(user);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("email_not_verified");
    });

    it("answers 403 account_suspended for the right password on a suspended account", async () => {
      const user = await h.createUser({ status: "suspended" });
      const res = await startLogin(user);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("account_suspended");
    });

    it("answers 401 for a deleted account", async () => {
      const user = await h.createUser({ status: "deleted" });
      const res = await startLogin(user);
      expect(res.status).toBe(401);
    });

    it("answers 429 with Retry-After within 60 s of the last sign-in code, then sends again", async () => {
      const user = await h.createUser();
      expect((await startLogin(user)).status).toBe(202);
      const early = await startLogin(user);
      expect(early.status).toBe(429);
      expect(early.body.error.code).toBe("rate_limited");
      expect(Number(early.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      h.clock.advance(60_000);
      expect((await startLogin(user)).status).toBe(202);
    });

    it("answers 429 to the client that tried 10 wrong passwords for the account, even with the right one, until the window ends", async () => {
      const user = await h.createUser();
      for (let i = 0; i < 10; i += 1) {
        expect((await startLogin({ email: user.email, password: `wrong ${i}` })).status).toBe(401);
      }
      const blocked = await startLogin(user);
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
      h.clock.advance(15 * 60_000 + 1000);
      expect((await startLogin(user)).status).toBe(202);
    });

    it("answers 422 for a missing password or a malformed email", async () => {
      expect((await h.post("/api/v1/auth/login", { email: "a@example.com" })).status).toBe(422);
      expect((await h.post("/api/v1/auth/login", { email: "nope", password: "x" })).status).toBe(422);
    });

    it("never writes the password to the log", async () => {
      const user = await h.createUser();
      await startLogin({ email: user.email, password: "a secret nobody logs" });
      expect(h.logs.raw.some((line) => line.includes("a secret nobody logs"))).toBe(false);
      expect(h.logs.raw.some((line) => line.includes(user.password))).toBe(false);
    });
  });

  describe("POST /api/v1/auth/login/verify", () => {
    it("answers 200 with the session: tokens, Bearer, lifetime and the user", async () => {
      const user = await h.createUser();
      await startLogin(user);
      const res = await h.post<SessionBody>("/api/v1/auth/login/verify", {
        email: user.email,
        code: h.lastCode(user.email),
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ token_type: "Bearer", expires_in: 900 });
      expect(res.body.data.refresh_token.length).toBeGreaterThanOrEqual(43);
      expect(res.body.data.user).toEqual({
        id: user.id,
        username: user.username,
        display_name: expect.any(String),
        email: user.email,
        role: "member",
        status: "active",
        created_at: expect.stringMatching(/Z$/),
      });
      const [, payload] = res.body.data.access_token.split(".");
      const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString());
      expect(claims).toMatchObject({ sub: user.id, role: "member", iss: "agora", aud: "agora-api" });
      expect(claims.exp - claims.iat).toBe(900);
      expect(typeof claims.sid).toBe("string");
      const me = await h.get("/api/v1/auth/me", { token: res.body.data.access_token });
      expect(me.status).toBe(200);
    });

    it("answers 401 invalid_code for a used, wrong or expired code", async () => {
      const user = await h.createUser();
      await startLogin(user);
      const code = h.lastCode(user.email);
      expect((await h.post("/api/v1/auth/login/verify", { email: user.email, code })).status).toBe(200);
      const reused = await h.post<ErrorBody>("/api/v1/auth/login/verify", { email: user.email, code });
      expect(reused.status).toBe(401);
      expect(reused.body.error.code).toBe("invalid_code");

      h.clock.advance(61_000);
      await startLogin(user);
      const fresh = h.lastCode(user.email);
      const wrong = await h.post<ErrorBody>("/api/v1/auth/login/verify", {
        email: user.email,
        code: fresh === "000000" ? "000001" : "000000",
      });
      expect(wrong.status).toBe(401);
      h.clock.advance(15 * 60_000 + 1000);
      const expired = await h.post<ErrorBody>("/api/v1/auth/login/verify", {
        email: user.email,
        code: fresh,
      });
      expect(expired.status).toBe(401);
      expect(expired.body.error.code).toBe("invalid_code");
    });

    it("answers 401 for an unknown email and 422 for a code that is not 6 characters", async () => {
      expect(
        (await h.post("/api/v1/auth/login/verify", { email: "nobody@example.com", code: "123456" })).status,
      ).toBe(401);
      expect(
        (await h.post("/api/v1/auth/login/verify", { email: "nobody@example.com", code: "12345" })).status,
      ).toBe(422);
    });

    it("stores new codes under the derived key, and still takes one stored under the legacy key in its lifetime (the transition)", async () => {
      /** A code's stored form under a key: an HMAC bound to the account and purpose. */
      const hashUnder = (key: Buffer | string, userId: string, code: string) =>
        createHmac("sha256", key).update(`${userId}:sign_in:${code}`).digest("hex");
      const legacyKey = `${h.config.tokenSecret}:codes`;
      const user = await h.createUser();
      await startLogin(user);
      const code = h.lastCode(user.email);
      const stored = async () =>
        (
          await h.db.sql.query<{ code_hash: string }>(
            "SELECT code_hash FROM auth_codes WHERE user_id = $1 AND purpose = 'sign_in'",
            [user.id],
          )
        ).rows[0]?.code_hash;
      const storeAs = (hash: string) =>
        h.db.sql.query("UPDATE auth_codes SET code_hash = $2 WHERE user_id = $1 AND purpose = 'sign_in'", [
          user.id,
          hash,
        ]);
      const verify = (tried: string) =>
        h.post<ErrorBody>("/api/v1/auth/login/verify", { email: user.email, code: tried });
      expect(await stored()).toBe(
        hashUnder(deriveKey(h.config.tokenSecret, KEY_PURPOSES.codes), user.id, code),
      );
      expect(await stored()).not.toBe(hashUnder(legacyKey, user.id, code));

      // The code as a process before the deploy stored it: a wrong code still misses, the code
      // itself signs in. Under any other key (the raw secret) it would not.
      await storeAs(hashUnder(h.config.tokenSecret, user.id, code));
      expect((await verify(code)).status).toBe(401);
      await storeAs(hashUnder(legacyKey, user.id, code));
      expect((await verify(code === "000000" ? "000001" : "000000")).status).toBe(401);
      expect((await verify(code)).status).toBe(200);
      expect((await verify(code)).status).toBe(401);
    });

    it("issues one session when two requests race with the same code", async () => {
      const user = await h.createUser();
      await startLogin(user);
      const code = h.lastCode(user.email);
      const results = await Promise.all(
        Array.from({ length: 2 }, () => h.post("/api/v1/auth/login/verify", { email: user.email, code })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
      const { rows } = await h.db.sql.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM sessions WHERE user_id = $1",
        [user.id],
      );
      expect(rows[0]?.n).toBe(1);
    });
  });

  describe("POST /api/v1/auth/login/otp/resend", () => {
    it("answers 429 with Retry-After to a resend right after the sign-in mailed a code; after the cooldown 202 and a new code, the old one stops working", async () => {
      const user = await h.createUser();
      await startLogin(user);
      const first = h.lastCode(user.email);
      const sent = h.mails?.sent.length;
      h.clock.advance(20_000);
      const early = await h.post<ErrorBody>("/api/v1/auth/login/otp/resend", { email: user.email });
      expect(early.status).toBe(429);
      expect(early.body.error.code).toBe("rate_limited");
      expect(Number(early.headers.get("retry-after"))).toBe(40);
      await h.runOutboxOnce();
      expect(h.mails?.sent.length).toBe(sent);
      h.clock.advance(41_000);
      const res = await h.post("/api/v1/auth/login/otp/resend", { email: user.email });
      expect(res.status).toBe(202);
      await h.runOutboxOnce();
      expect(h.mails?.sent.length).toBe((sent ?? 0) + 1);
      const second = h.lastCode(user.email);
      if (first !== second) {
        expect((await h.post("/api/v1/auth/login/verify", { email: user.email, code: first })).status).toBe(
          401,
        );
      }
      expect((await h.post("/api/v1/auth/login/verify", { email: user.email, code: second })).status).toBe(
        200,
      );
    });

    it("keys the cooldown on the address as given: a second resend inside it is 429 for an account and an unknown address alike", async () => {
      const user = await h.createUser();
      await startLogin(user);
      h.clock.advance(61_000);
      const unknown = `nobody-${user.username}@example.com`;
      const answers: Record<string, { status: number; retryAfter: string | null; keys: string[] }[]> = {};
      for (const email of [user.email, unknown]) {
        answers[email] = [];
        for (const wait of [0, 30_000, 31_000]) {
          h.clock.advance(wait);
          const res = await h.post<ErrorBody>("/api/v1/auth/login/otp/resend", {
            email: email.toUpperCase(),
          });
          answers[email]?.push({
            status: res.status,
            retryAfter: res.headers.get("retry-after"),
            keys: Object.keys(res.body).concat(Object.keys((res.body as { error?: object }).error ?? {})),
          });
        }
      }
      expect(answers[user.email]?.map((a) => [a.status, a.retryAfter])).toEqual([
        [202, null],
        [429, "30"],
        [202, null],
      ]);
      expect(answers[unknown]).toEqual(answers[user.email]);
      await h.runOutboxOnce();
    });

    it("answers 202 and mails nothing without a sign-in in progress (the password comes first)", async () => {
      const user = await h.createUser();
      const before = h.mails?.sent.length;
      expect((await h.post("/api/v1/auth/login/otp/resend", { email: user.email })).status).toBe(202);
      expect((await h.post("/api/v1/auth/login/otp/resend", { email: "nobody@example.com" })).status).toBe(
        202,
      );
      await h.runOutboxOnce();
      expect(h.mails?.sent.length).toBe(before);
    });
  });
});
