import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../test/harness";

type ErrorBody = { error: { code: string; details?: { path: string; message: string }[] } };

const registration = (tag: string, overrides: Record<string, unknown> = {}) => ({
  username: `new_${tag}`,
  email: `new.${tag}@example.com`,
  password: "a fine password",
  display_name: "New Person",
  ...overrides,
});

describe("registration and email verification", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  describe("POST /api/v1/auth/register", () => {
    it("creates a pending account, returns its id and mails a 6-digit code alone on a line", async () => {
      const res = await h.post<{ data: { user_id: string } }>("/api/v1/auth/register", registration("a1"));
      expect(res.status).toBe(201);
      expect(res.body.data.user_id).toMatch(/^[0-9a-f-]{36}$/);
      const mail = h.mails?.last("new.a1@example.com");
      expect(mail?.subject).toBe("Verify your Agora account");
      expect(mail?.text.split("\n").filter((line) => /^\d{6}$/.test(line))).toHaveLength(1);
      expect(mail?.html).toContain(h.lastCode("new.a1@example.com"));
      const stored = await h.runtime.identity.repos.users.findById(res.body.data.user_id);
      expect(stored?.status).toBe("pending_verification");
      expect(stored?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    });

    it("normalises the email: trimmed and lower-cased", async () => {
      const res = await h.post<{ data: { user_id: string } }>(
        "/api/v1/auth/register",
        registration("a2", { email: "  New.A2@Example.COM " }),
      );
      expect(res.status).toBe(201);
      const stored = await h.runtime.identity.repos.users.findById(res.body.data.user_id);
      expect(stored?.email).toBe("new.a2@example.com");
    });

    it("answers 422 with field details for every bound of the Limits table", async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ username: "ab" }, "username"],
        [{ username: "x".repeat(33) }, "username"],
        [{ username: "has space" }, "username"],
        [{ email: "not-an-email" }, "email"],
        [{ password: "7 chars" }, "password"],
        [{ password: "x".repeat(129) }, "password"],
        [{ display_name: "x".repeat(121) }, "display_name"],
        [{ username: undefined }, "username"],
      ];
      for (const [override, path] of cases) {
        const res = await h.post<ErrorBody>("/api/v1/auth/register", registration("bad", override));
        expect(res.status, JSON.stringify(override)).toBe(422);
        expect(res.body.error.code).toBe("validation_failed");
        expect(res.body.error.details?.map((d) => d.path)).toContain(path);
      }
      expect(await h.runtime.identity.repos.users.findByEmail("new.bad@example.com")).toBeNull();
    });

    it("accepts the bounds themselves (3 and 32 characters, 8 and 128, 120)", async () => {
      const res = await h.post("/api/v1/auth/register", {
        username: "abc",
        email: "bounds@example.com",
        password: "x".repeat(128),
        display_name: "d".repeat(120),
      });
      expect(res.status).toBe(201);
      const longest = await h.post("/api/v1/auth/register", {
        username: "u".repeat(32),
        email: "bounds2@example.com",
        password: "12345678",
      });
      expect(longest.status).toBe(201);
    });

    it("answers a verified email (compared case-insensitively) like a new one and mails its owner a notice, no code", async () => {
      const first = await h.post<{ data: { user_id: string } }>("/api/v1/auth/register", registration("dup"));
      // Verified: a pending registration would be replaced instead (identity.pending.int.test.ts).
      const verified = await h.post("/api/v1/auth/verify-email", {
        user_id: first.body.data.user_id,
        code: h.lastCode("new.dup@example.com"),
      });
      expect(verified.status).toBe(200);
      const owner = await h.runtime.identity.repos.users.findById(first.body.data.user_id);
      const res = await h.post<{ data: { user_id: string } }>(
        "/api/v1/auth/register",
        registration("dup2", { email: "NEW.DUP@example.com" }),
      );
      expect(res.status).toBe(201);
      expect(res.body.data.user_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.body.data.user_id).not.toBe(first.body.data.user_id);
      const notice = h.mails?.last("new.dup@example.com");
      expect(notice?.subject).toBe("Someone tried to register with your email address");
      expect(notice?.text).not.toMatch(/^\d{6}$/m);
      // The id leads nowhere: no account was made, and verifying it is a wrong code.
      expect(await h.runtime.identity.repos.users.findById(res.body.data.user_id)).toBeNull();
      const verify = await h.post<ErrorBody>("/api/v1/auth/verify-email", {
        user_id: res.body.data.user_id,
        code: "123456",
      });
      expect(verify.status).toBe(422);
      expect(verify.body.error.code).toBe("invalid_code");
      expect(await h.runtime.identity.repos.users.findById(first.body.data.user_id)).toEqual(owner);
    });

    it("answers 409 for a taken username whether or not the email is taken, so 409 says nothing of the email", async () => {
      await h.post("/api/v1/auth/register", registration("held"));
      for (const email of ["new.held@example.com", "fresh.held@example.com"]) {
        const res = await h.post<ErrorBody>(
          "/api/v1/auth/register",
          registration("x", { username: "new_held", email }),
        );
        expect(res.status, email).toBe(409);
        expect(res.body.error.code).toBe("username_taken");
      }
    });

    it("answers 409 username_taken on a taken username, compared case-insensitively", async () => {
      await h.post("/api/v1/auth/register", registration("case"));
      const res = await h.post<ErrorBody>(
        "/api/v1/auth/register",
        registration("other", { username: "NEW_CASE" }),
      );
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("username_taken");
    });

    it("ignores unknown fields and never takes a role from the body", async () => {
      const res = await h.post<{ data: { user_id: string } }>(
        "/api/v1/auth/register",
        registration("role", { role: "admin", status: "active", id: "00000000-0000-0000-0000-000000000000" }),
      );
      expect(res.status).toBe(201);
      const stored = await h.runtime.identity.repos.users.findById(res.body.data.user_id);
      expect(stored).toMatchObject({ role: "member", status: "pending_verification" });
    });
  });

  describe("POST /api/v1/auth/verify-email", () => {
    const register = async (tag: string) => {
      const res = await h.post<{ data: { user_id: string } }>("/api/v1/auth/register", registration(tag));

      return { userId: res.body.data.user_id, email: `new.${tag}@example.com` };
    };

    it("activates the account with the mailed code, once", async () => {
      const { userId, email } = await register("v1");
      const code = h.lastCode(email);
      const res = await h.post("/api/v1/auth/verify-email", { user_id: userId, code });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, data: { status: "verified" } });
      expect((await h.runtime.identity.repos.users.findById(userId))?.status).toBe("active");

      const again = await h.post<ErrorBody>("/api/v1/auth/verify-email", { user_id: userId, code });
      expect(again.status).toBe(422);
      expect(again.body.error.code).toBe("invalid_code");
    });

    it("answers 422 invalid_code for a wrong code and spends the code after 5 wrong tries", async () => {
      const { userId, email } = await register("v2");
      const code = h.lastCode(email);
      const wrong = code === "000000" ? "111111" : "000000";
      for (let i = 0; i < 5; i += 1) {
        const res = await h.post<ErrorBody>("/api/v1/auth/verify-email", { user_id: userId, code: wrong });
        expect(res.status).toBe(422);
        expect(res.body.error.code).toBe("invalid_code");
      }
      const right = await h.post<ErrorBody>("/api/v1/auth/verify-email", { user_id: userId, code });
      expect(right.status).toBe(422);
      expect((await h.runtime.identity.repos.users.findById(userId))?.status).toBe("pending_verification");
    });

    it("answers 422 invalid_code once the code is older than 30 minutes", async () => {
      const { userId, email } = await register("v3");
      const code = h.lastCode(email);
      h.clock.advance(30 * 60_000 + 1000);
      const res = await h.post<ErrorBody>("/api/v1/auth/verify-email", { user_id: userId, code });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe("invalid_code");
    });

    it("answers 422 invalid_code for an unknown or malformed user id", async () => {
      for (const userId of ["not-a-uuid", h.runtime.ids.next()]) {
        const res = await h.post<ErrorBody>("/api/v1/auth/verify-email", { user_id: userId, code: "123456" });
        expect(res.status).toBe(422);
        expect(res.body.error.code).toBe("invalid_code");
      }
    });

    it("answers 422 validation_failed for a code outside 4-8 characters", async () => {
      for (const code of ["123", "123456789"]) {
        const res = await h.post<ErrorBody>("/api/v1/auth/verify-email", {
          user_id: h.runtime.ids.next(),
          code,
        });
        expect(res.status).toBe(422);
        expect(res.body.error).toMatchObject({ code: "validation_failed", details: [{ path: "code" }] });
      }
    });
  });

  describe("POST /api/v1/auth/verification/resend", () => {
    it("answers 429 with Retry-After to a resend right after registering, then 202 and a new code after the cooldown", async () => {
      await h.post("/api/v1/auth/register", registration("r1"));
      const email = "new.r1@example.com";
      const first = h.lastCode(email);
      const sent = h.mails?.sent.length ?? 0;

      h.clock.advance(15_000);
      const early = await h.post<ErrorBody>("/api/v1/auth/verification/resend", { email });
      expect(early.status).toBe(429);
      expect(early.body.error.code).toBe("rate_limited");
      expect(early.headers.get("retry-after")).toBe("45");
      await h.runOutboxOnce();
      expect(h.mails?.sent.length).toBe(sent);

      h.clock.advance(46_000);
      const later = await h.post("/api/v1/auth/verification/resend", { email });
      expect(later.status).toBe(202);
      await h.runOutboxOnce();
      expect(h.mails?.sent.length).toBe(sent + 1);
      const second = h.lastCode(email);
      const user = await h.runtime.identity.repos.users.findByEmail(email);
      const stale = await h.post("/api/v1/auth/verify-email", { user_id: user?.id, code: first });
      expect(first === second || stale.status === 422).toBe(true);
      const fresh = await h.post("/api/v1/auth/verify-email", { user_id: user?.id, code: second });
      expect(fresh.status).toBe(200);
    });

    it("answers a resend right after registering a taken address like one after a new address: 429 with the same Retry-After", async () => {
      const owner = await h.createUser();
      const taken = await h.post("/api/v1/auth/register", { ...registration("r2"), email: owner.email });
      const fresh = await h.post("/api/v1/auth/register", registration("r3"));
      expect([taken.status, fresh.status]).toEqual([201, 201]);
      h.clock.advance(10_000);
      const answers = [];
      for (const email of [owner.email, "new.r3@example.com"]) {
        const res = await h.post<ErrorBody>("/api/v1/auth/verification/resend", { email });
        answers.push([res.status, res.headers.get("retry-after"), res.body.error.code]);
      }
      expect(answers).toEqual([
        [429, "50", "rate_limited"],
        [429, "50", "rate_limited"],
      ]);
    });

    it("keys the cooldown on the address as given: a second resend inside it is 429 for a pending account and an unknown address alike", async () => {
      await h.post("/api/v1/auth/register", registration("r4"));
      h.clock.advance(61_000);
      const statuses: Record<string, (number | string | null)[][]> = {};
      for (const email of ["new.r4@example.com", "nobody.r4@example.com"]) {
        const before = h.mails?.sent.length ?? 0;
        statuses[email] = [];
        for (const wait of [0, 59_000, 1_000]) {
          h.clock.advance(wait);
          const res = await h.post("/api/v1/auth/verification/resend", { email: ` ${email.toUpperCase()}` });
          statuses[email]?.push([res.status, res.headers.get("retry-after")]);
          await h.runOutboxOnce();
        }
        statuses[email]?.push([(h.mails?.sent.length ?? 0) - before]);
      }
      expect(statuses["new.r4@example.com"]).toEqual([[202, null], [429, "1"], [202, null], [2]]);
      // The same answers; only the pending account is mailed.
      expect(statuses["nobody.r4@example.com"]).toEqual([[202, null], [429, "1"], [202, null], [0]]);
    });

    it("answers 202 and mails nothing for an unknown or already active account", async () => {
      const active = await h.createUser();
      const before = h.mails?.sent.length;
      for (const email of ["nobody@example.com", active.email]) {
        const res = await h.post("/api/v1/auth/verification/resend", { email });
        expect(res.status).toBe(202);
        expect(res.body).toMatchObject({ data: { status: "accepted" } });
      }
      await h.runOutboxOnce();
      expect(h.mails?.sent.length).toBe(before);
    });

    it("answers 422 for a malformed email", async () => {
      const res = await h.post("/api/v1/auth/verification/resend", { email: "nope" });
      expect(res.status).toBe(422);
    });
  });
});
