import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { createSmtpMailer } from "@agora/adapters/mail/smtp-mailer";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../test/harness";

type ErrorBody = { error: { code: string } };

describe("password reset", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  /** The request, then one outbox batch: the worker is what mails the code. */
  const requestReset = async (email: string) => {
    const res = await h.post<ErrorBody>("/api/v1/auth/password-reset/request", { email });
    await h.runOutboxOnce();

    return res;
  };
  const confirm = (email: string, code: string, password = "a brand new password") =>
    h.post<ErrorBody>("/api/v1/auth/password-reset/confirm", { email, code, password });

  it("answers 202 for an unknown email and mails nothing", async () => {
    const before = h.mails?.sent.length;
    const res = await requestReset("nobody@example.com");
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ data: { status: "accepted" } });
    expect(h.mails?.sent.length).toBe(before);
  });

  it("answers 202 for an account and mails a reset code; inside the cooldown still 202, nothing mailed", async () => {
    const user = await h.createUser();
    expect((await requestReset(user.email)).status).toBe(202);
    expect(h.mails?.last(user.email)?.subject).toBe("Reset your Agora password");
    const count = h.mails?.sent.length;
    expect((await requestReset(user.email)).status).toBe(202);
    expect(h.mails?.sent.length).toBe(count);
  });

  it("changes the password with the code and revokes every session", async () => {
    const s = await h.signIn();
    await requestReset(s.user.email);
    const res = await confirm(s.user.email, h.lastCode(s.user.email));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: { status: "password_changed" } });
    expect((await h.get("/api/v1/auth/me", { token: s.accessToken })).status).toBe(401);
    expect((await h.post("/api/v1/auth/refresh", { refresh_token: s.refreshToken })).status).toBe(401);
    const old = await h.post<ErrorBody>("/api/v1/auth/login", {
      email: s.user.email,
      password: s.user.password,
    });
    expect(old.status).toBe(401);
    const fresh = await h.post("/api/v1/auth/login", {
      email: s.user.email,
      password: "a brand new password",
    });
    expect(fresh.status).toBe(202);
  });

  it("answers 422 invalid_code for a wrong, reused or expired code, and leaves the password alone", async () => {
    const user = await h.createUser();
    await requestReset(user.email);
    const code = h.lastCode(user.email);
    const wrong = await confirm(user.email, code === "000000" ? "000001" : "000000");
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.code).toBe("invalid_code");
    expect((await confirm(user.email, code)).status).toBe(200);
    expect((await confirm(user.email, code, "yet another password")).status).toBe(422);

    h.clock.advance(61_000);
    await requestReset(user.email);
    const late = h.lastCode(user.email);
    h.clock.advance(30 * 60_000 + 1000);
    expect((await confirm(user.email, late, "too late password")).status).toBe(422);
    expect(
      (await h.post("/api/v1/auth/login", { email: user.email, password: "a brand new password" })).status,
    ).toBe(202);
  });

  it("accepts one of two parallel confirmations with the same code", async () => {
    const user = await h.createUser();
    await requestReset(user.email);
    const code = h.lastCode(user.email);
    const results = await Promise.all([
      confirm(user.email, code, "first new password"),
      confirm(user.email, code, "second new password"),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
  });

  it("answers 422 for a password outside 8-128 or a code outside 4-8", async () => {
    expect((await confirm("a@example.com", "123456", "short")).status).toBe(422);
    expect((await confirm("a@example.com", "123456", "x".repeat(129))).status).toBe(422);
    expect((await confirm("a@example.com", "123", "long enough")).status).toBe(422);
  });
});

describe("rate limits per client address (RATE_LIMIT_AUTH_PER_IP)", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness({ config: { rateLimitAuthPerIp: 3, trustProxy: true } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("answers 429 with Retry-After past the limit for that address only, until the window ends", async () => {
    const from = (ip: string) => ({ headers: { "x-forwarded-for": `203.0.113.9, ${ip}` } });
    for (let i = 0; i < 3; i += 1) {
      const res = await h.post(
        "/api/v1/auth/login",
        { email: `x${i}@example.com`, password: "whatever" },
        from("198.51.100.1"),
      );
      expect(res.status).toBe(401);
    }
    const blocked = await h.post<ErrorBody>(
      "/api/v1/auth/register",
      { username: "abc", email: "a@example.com", password: "12345678" },
      from("198.51.100.1"),
    );
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe("rate_limited");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    const other = await h.post(
      "/api/v1/auth/login",
      { email: "y@example.com", password: "whatever" },
      from("198.51.100.2"),
    );
    expect(other.status).toBe(401);
    h.clock.advance(15 * 60_000 + 1000);
    const later = await h.post(
      "/api/v1/auth/login",
      { email: "z@example.com", password: "whatever" },
      from("198.51.100.1"),
    );
    expect(later.status).toBe(401);
  });
});

describe("mail delivery failure", () => {
  let h: Harness;

  beforeAll(async () => {
    // A real SMTP adapter pointed at a port nothing listens on: delivery fails as it would in production.
    const probe = createServer();
    probe.listen(0, "127.0.0.1");
    await once(probe, "listening");
    const { port } = probe.address() as AddressInfo;
    probe.close();
    const mailer = createSmtpMailer(
      {
        host: "127.0.0.1",
        port,
        user: undefined,
        password: undefined,
        secure: false,
        from: "agora@localhost",
      },
      { connectionTimeoutMs: 1000, greetingTimeoutMs: 1000, socketTimeoutMs: 1000 },
    );
    h = await createHarness({ mail: { mailer, kind: "smtp", close: () => mailer.close() } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("answers registration with 503 email_unavailable and keeps no account", async () => {
    const res = await h.post<ErrorBody>("/api/v1/auth/register", {
      username: "unlucky",
      email: "unlucky@example.com",
      password: "12345678",
    });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("email_unavailable");
    expect(await h.runtime.identity.repos.users.findByEmail("unlucky@example.com")).toBeNull();
  });

  it("answers sign-in with 503 and leaves no usable code and no cooldown behind", async () => {
    const user = await h.createUser();
    const first = await h.post<ErrorBody>("/api/v1/auth/login", {
      email: user.email,
      password: user.password,
    });
    expect(first.status).toBe(503);
    expect(await h.runtime.identity.repos.codes.find(user.id, "sign_in")).toBeNull();
    const retry = await h.post<ErrorBody>("/api/v1/auth/login", {
      email: user.email,
      password: user.password,
    });
    expect(retry.status).toBe(503);
  });

  it("still answers the password reset request 202; the worker's delivery fails, keeps no code, and retries", async () => {
    const user = await h.createUser();
    const res = await h.post("/api/v1/auth/password-reset/request", { email: user.email });
    expect(res.status).toBe(202);
    const batch = await h.runOutboxOnce();
    expect(batch).toMatchObject({ retried: 1, processed: 0, dead: 0 });
    expect(await h.runtime.identity.repos.codes.find(user.id, "reset")).toBeNull();
  });
});

describe("registration end to end through a real SMTP server", () => {
  let h: Harness;
  let server: SMTPServer;
  const received: string[] = [];

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          received.push(Buffer.concat(chunks).toString("utf8"));
          callback();
        });
      },
    });
    server.listen(0, "127.0.0.1");
    await once(server.server, "listening");
    const { port } = server.server.address() as AddressInfo;
    const mailer = createSmtpMailer({
      host: "127.0.0.1",
      port,
      user: undefined,
      password: undefined,
      secure: false,
      from: "agora@localhost",
    });
    h = await createHarness({ mail: { mailer, kind: "smtp", close: () => mailer.close() } });
  });
  afterAll(async () => {
    await h?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("delivers the verification code over SMTP and the code from the message verifies the account", async () => {
    const res = await h.post<{ data: { user_id: string } }>("/api/v1/auth/register", {
      username: "smtp_user",
      email: "smtp.user@example.com",
      password: "a fine password",
    });
    expect(res.status).toBe(201);
    const message = received.at(-1) ?? "";
    expect(message).toContain("Subject: Verify your Agora account");
    expect(message).toContain("To: smtp.user@example.com");
    const code = message.replace(/\r\n/g, "\n").match(/^(\d{6})$/m)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const verified = await h.post("/api/v1/auth/verify-email", { user_id: res.body.data.user_id, code });
    expect(verified.status).toBe(200);
  });
});
