import { createMemoryMailer } from "@agora/adapters/mail/memory-mailer";
import type { Argon2Passwords } from "@agora/adapters/security/argon2-passwords";
import { onPostgres } from "@agora/db/test/databases";
import type { OutgoingMail } from "@agora/domain/common/mail";
import { createLogger } from "@agora/process/logging";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type TestUser } from "../../../test/harness";

type ErrorBody = { error: { code: string; message: string } };

const HOUR = 3600_000;

/** A 6-digit code that is not `code`. */
const wrongFor = (code: string, n = 0) => String((Number(code) + 1 + n) % 1_000_000).padStart(6, "0");

describe("code guessing: the long-term cap on wrong codes", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  const login = (user: TestUser) =>
    h.post<ErrorBody>("/api/v1/auth/login", { email: user.email, password: user.password });
  const verifyLogin = (user: TestUser, code: string) =>
    h.post<ErrorBody>("/api/v1/auth/login/verify", { email: user.email, code });

  it("21 wrong sign-in codes over 7 fresh codes lock sign-in codes for 24 hours and tell the owner once", async () => {
    const user = await h.createUser();
    let wrong = 0;
    let lastCode = "";
    for (let round = 0; round < 7; round += 1) {
      // A new code never resets the count; the cooldown grows, so wait out the longest one.
      h.clock.advance(HOUR + 1000);
      expect((await login(user)).status, `round ${round}`).toBe(202);
      lastCode = h.lastCode(user.email);
      for (let i = 0; i < 3; i += 1) {
        wrong += 1;
        expect((await verifyLogin(user, wrongFor(lastCode, i))).status).toBe(401);
      }
    }
    expect(wrong).toBe(21);
    // The 20th wrong code spent the live one: even the right code is refused now.
    expect((await verifyLogin(user, lastCode)).status).toBe(401);
    h.clock.advance(HOUR + 1000);
    const locked = await login(user);
    expect(locked.status).toBe(429);
    expect(locked.body.error).toMatchObject({ code: "rate_limited" });
    expect(locked.body.error.message).toMatch(/too many wrong codes/i);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(3600);

    await h.runOutboxOnce();
    const notices = h.mails?.sent.filter(
      (mail) =>
        mail.to === user.email && mail.subject === "Too many wrong sign-in codes for your Agora account",
    );
    expect(notices).toHaveLength(1);
    expect(notices?.[0]?.text).not.toMatch(/^\d{6}$/m);

    h.clock.advance(24 * HOUR);
    expect((await login(user)).status).toBe(202);
    expect((await verifyLogin(user, h.lastCode(user.email))).status).toBe(200);
  });

  it("locks reset codes the same way: after 20 wrong ones no reset code is mailed, and the answer stays 202", async () => {
    const user = await h.createUser();
    const requestReset = async () => {
      expect((await h.post("/api/v1/auth/password-reset/request", { email: user.email })).status).toBe(202);
      await h.runOutboxOnce();
    };
    const confirm = (code: string) =>
      h.post<ErrorBody>("/api/v1/auth/password-reset/confirm", {
        email: user.email,
        code,
        password: "a brand new password",
      });
    for (let round = 0; round < 4; round += 1) {
      h.clock.advance(HOUR + 1000);
      await requestReset();
      const code = h.lastCode(user.email);
      for (let i = 0; i < 5; i += 1) {
        expect((await confirm(wrongFor(code, i))).status).toBe(422);
      }
    }
    await h.runOutboxOnce();
    const mailed = h.mails?.sent.length ?? 0;
    h.clock.advance(HOUR + 1000);
    await requestReset();
    const after = h.mails?.sent.slice(mailed) ?? [];
    expect(after.map((mail) => mail.subject)).toEqual([]);
    expect(
      h.mails?.sent.filter((mail) => mail.subject.startsWith("Too many wrong password reset codes")),
    ).toHaveLength(1);
  });

  it("grows the cooldown between codes: 60 s after each of the first three, then doubling", async () => {
    const user = await h.createUser();
    const at = async (seconds: number) => {
      h.clock.advance(seconds * 1000);

      return login(user);
    };
    expect((await at(0)).status).toBe(202);
    expect((await at(60)).status).toBe(202);
    expect((await at(60)).status).toBe(202);
    expect((await at(60)).status).toBe(202);
    // 120 s after the fourth code, 240 s after the fifth.
    const early = await at(60);
    expect(early.status).toBe(429);
    expect(Number(early.headers.get("retry-after"))).toBe(60);
    expect((await at(60)).status).toBe(202);
    const fifth = await at(200);
    expect(fifth.status).toBe(429);
    expect(Number(fifth.headers.get("retry-after"))).toBe(40);
    expect((await at(40)).status).toBe(202);
  });

  it("keeps codes out of the log (MAIL_LOG_BODIES is off)", async () => {
    const user = await h.createUser();
    h.clock.advance(HOUR);
    expect((await login(user)).status).toBe(202);
    const code = h.lastCode(user.email);
    expect(h.logs.raw.some((line) => line.includes("not sent: no mail provider"))).toBe(true);
    expect(h.logs.raw.some((line) => line.includes(code))).toBe(false);
    const { rows } = await h.db.sql.query<{ payload: unknown }>("SELECT payload FROM outbox_events");
    expect(JSON.stringify(rows)).not.toContain(code);
  });
});

describe("account enumeration", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);

    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  };

  /** Median times of 50 reset requests for accounts and 50 for unknown addresses, interleaved. */
  const measure = async (round: number) => {
    const users = await Promise.all(Array.from({ length: 50 }, () => h.createUser()));
    const known: number[] = [];
    const unknown: number[] = [];
    const time = async (email: string) => {
      const started = performance.now();
      const res = await h.post("/api/v1/auth/password-reset/request", { email });
      const elapsed = performance.now() - started;
      expect(res.status).toBe(202);

      return elapsed;
    };
    for (const [index, user] of users.entries()) {
      // Alternate which goes first, so drift in the machine's load hits both sides alike.
      if (index % 2 === 0) {
        known.push(await time(user.email));
        unknown.push(await time(`nobody-${round}-${index}@example.com`));
      } else {
        unknown.push(await time(`nobody-${round}-${index}@example.com`));
        known.push(await time(user.email));
      }
    }

    return { known: median(known), unknown: median(unknown) };
  };

  it("answers a reset request for an account and for an unknown email within 10% in median time", async () => {
    for (let i = 0; i < 10; i += 1) {
      await h.post("/api/v1/auth/password-reset/request", { email: `warm-up-${i}@example.com` });
    }
    // A shared 2-core machine can stall any one run; a real difference (a transaction, a mail, a hash
    // on one side only) shows in every run, so one run within bounds out of three is the criterion.
    const runs: { known: number; unknown: number }[] = [];
    for (let round = 0; round < 3; round += 1) {
      const run = await measure(round);
      runs.push(run);
      if (Math.abs(run.known - run.unknown) < 0.1 * Math.max(run.known, run.unknown)) {
        break;
      }
    }
    const last = runs.at(-1) ?? { known: 0, unknown: 1 };
    expect(Math.abs(last.known - last.unknown), JSON.stringify(runs)).toBeLessThan(
      0.1 * Math.max(last.known, last.unknown),
    );
  });

  /**
   * Median times of 50 wrong sign-in codes for active accounts, each with a live code, and 50 for
   * unknown addresses, interleaved.
   */
  const measureVerify = async (round: number) => {
    const users = await Promise.all(Array.from({ length: 50 }, () => h.createUser()));
    const now = h.clock.now();
    for (const user of users) {
      // A sign-in in progress: a live code whose value the guesser does not know.
      await h.runtime.identity.repos.codes.putIfCooledDown(
        user.id,
        "sign_in",
        { codeHash: "not-a-code-hash", sentAt: now, expiresAt: new Date(now.getTime() + 15 * 60_000) },
        now,
      );
    }
    const known: number[] = [];
    const unknown: number[] = [];
    const time = async (email: string) => {
      const started = performance.now();
      const res = await h.post<ErrorBody>("/api/v1/auth/login/verify", { email, code: "123456" });
      const elapsed = performance.now() - started;
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("invalid_code");

      return elapsed;
    };
    for (const [index, user] of users.entries()) {
      if (index % 2 === 0) {
        known.push(await time(user.email));
        unknown.push(await time(`nobody-verify-${round}-${index}@example.com`));
      } else {
        unknown.push(await time(`nobody-verify-${round}-${index}@example.com`));
        known.push(await time(user.email));
      }
    }

    return { known: median(known), unknown: median(unknown) };
  };

  it("answers a wrong sign-in code for an active account and for an unknown email within 10% in median time", async () => {
    for (let i = 0; i < 10; i += 1) {
      await h.post("/api/v1/auth/login/verify", { email: `warm-up-verify-${i}@example.com`, code: "123456" });
    }
    // As for reset requests: one run within bounds out of three on a shared machine.
    const runs: { known: number; unknown: number }[] = [];
    for (let round = 0; round < 3; round += 1) {
      const run = await measureVerify(round);
      runs.push(run);
      if (Math.abs(run.known - run.unknown) < 0.1 * Math.max(run.known, run.unknown)) {
        break;
      }
    }
    const last = runs.at(-1) ?? { known: 0, unknown: 1 };
    expect(Math.abs(last.known - last.unknown), JSON.stringify(runs)).toBeLessThan(
      0.1 * Math.max(last.known, last.unknown),
    );
  });

  it("answers both resends for an account and for an unknown email within 10% in median time, and alike inside the cooldown", async () => {
    for (const path of ["/api/v1/auth/verification/resend", "/api/v1/auth/login/otp/resend"]) {
      const runs: { known: number; unknown: number }[] = [];
      for (let round = 0; round < 3; round += 1) {
        const users = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            h.createUser(
              i % 2 === 0 && path.includes("verification") ? { status: "pending_verification" } : {},
            ),
          ),
        );
        const known: number[] = [];
        const unknown: number[] = [];
        const time = async (email: string, status: number) => {
          const started = performance.now();
          const res = await h.post(path, { email });
          const elapsed = performance.now() - started;
          expect(res.status).toBe(status);

          return elapsed;
        };
        for (const [index, user] of users.entries()) {
          const nobody = `nobody-resend-${path.length}-${round}-${index}@example.com`;
          // The second request for an address falls inside its cooldown: 429 for both alike.
          for (const status of [202, 429]) {
            if (index % 2 === 0) {
              known.push(await time(user.email, status));
              unknown.push(await time(nobody, status));
            } else {
              unknown.push(await time(nobody, status));
              known.push(await time(user.email, status));
            }
          }
        }
        const run = { known: median(known), unknown: median(unknown) };
        runs.push(run);
        if (Math.abs(run.known - run.unknown) < 0.1 * Math.max(run.known, run.unknown)) {
          break;
        }
      }
      const last = runs.at(-1) ?? { known: 0, unknown: 1 };
      expect(Math.abs(last.known - last.unknown), `${path} ${JSON.stringify(runs)}`).toBeLessThan(
        0.1 * Math.max(last.known, last.unknown),
      );
    }
    while ((await h.runOutboxOnce()).claimed > 0) {
      // deliver what the resends queued, so later tests start from an empty outbox
    }
  });

  it("writes the same one outbox event for an account and for an unknown email, and mails only the account", async () => {
    const user = await h.createUser();
    while ((await h.runOutboxOnce()).claimed > 0) {
      // drain what earlier tests queued
    }
    const before = h.mails?.sent.length ?? 0;
    for (const email of [user.email, "nobody-at-all@example.com"]) {
      expect((await h.post("/api/v1/auth/password-reset/request", { email })).status).toBe(202);
    }
    const { rows } = await h.db.sql.query<{ kind: string }>(
      "SELECT kind FROM outbox_events WHERE processed_at IS NULL ORDER BY created_at, id",
    );
    expect(rows.map((row) => row.kind)).toEqual(["identity.code_requested", "identity.code_requested"]);
    await h.runOutboxOnce();
    expect(h.mails?.sent.slice(before).map((mail) => mail.to)).toEqual([user.email]);
  });
});

describe("limits per email and per address", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness({
      config: {
        rateLimitAuthPerIp: 3,
        trustProxy: true,
        rateLimitRegisterPerEmail: 2,
        rateLimitResetPerEmail: 2,
      },
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  const from = (ip: string) => ({ headers: { "x-forwarded-for": ip } });

  it("counts IPv6 clients per /64: two addresses of one prefix share a bucket, another prefix does not", async () => {
    for (const ip of ["2001:db8:1:2::a", "2001:db8:1:2:ffff::b", "2001:DB8:1:2:0:0:0:c"]) {
      expect(
        (await h.post("/api/v1/auth/login", { email: "a@example.com", password: "x" }, from(ip))).status,
      ).toBe(401);
    }
    const blocked = await h.post<ErrorBody>(
      "/api/v1/auth/login",
      { email: "a@example.com", password: "x" },
      from("2001:db8:1:2:1234:5678:9abc:def0"),
    );
    expect(blocked.status).toBe(429);
    const other = await h.post(
      "/api/v1/auth/login",
      { email: "a@example.com", password: "x" },
      from("2001:db8:1:3::a"),
    );
    expect(other.status).toBe(401);
    // An IPv4-mapped address is its IPv4 address.
    for (let i = 0; i < 3; i += 1) {
      await h.post("/api/v1/auth/login", { email: "b@example.com", password: "x" }, from("192.0.2.7"));
    }
    const mapped = await h.post(
      "/api/v1/auth/login",
      { email: "b@example.com", password: "x" },
      from("::ffff:192.0.2.7"),
    );
    expect(mapped.status).toBe(429);
  });

  it("limits registrations per email, taken or not, with 429 and Retry-After", async () => {
    h.clock.advance(HOUR);
    const register = (n: number, ip: string) =>
      h.post<ErrorBody>(
        "/api/v1/auth/register",
        { username: `limited_${n}`, email: "limited@example.com", password: "a fine password" },
        from(ip),
      );
    expect((await register(1, "198.51.100.1")).status).toBe(201);
    expect((await register(2, "198.51.100.2")).status).toBe(201);
    const third = await register(3, "198.51.100.3");
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe("rate_limited");
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("limits reset requests per email alike for an account and an unknown address", async () => {
    h.clock.advance(HOUR);
    const user = await h.createUser();
    for (const email of [user.email, "unknown-reset@example.com"]) {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        statuses.push(
          (await h.post("/api/v1/auth/password-reset/request", { email }, from(`203.0.113.${10 + i}`)))
            .status,
        );
      }
      expect(statuses, email).toEqual([202, 202, 429]);
    }
  });
});

describe("costly unauthenticated work", () => {
  let h: Harness;
  let limiter: Argon2Passwords["limiter"];

  beforeAll(async () => {
    h = await createHarness({ config: { passwordHashConcurrency: 2, passwordHashQueue: 3 } });
    limiter = (h.runtime.identity.passwords as Argon2Passwords).limiter;
  });
  afterAll(async () => {
    await h?.close();
  });

  it("runs at most PASSWORD_HASH_CONCURRENCY argon2 calls at once and answers 503 past the queue", async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        h.post<ErrorBody>("/api/v1/auth/login", {
          email: `burst${i}@example.com`,
          password: "wrong password",
        }),
      ),
    );
    const statuses = results.map((res) => res.status);
    expect(statuses.filter((status) => status === 401).length).toBeGreaterThanOrEqual(2);
    const busy = results.filter((res) => res.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy[0]?.body.error.code).toBe("service_unavailable");
    expect(busy[0]?.headers.get("retry-after")).toBe("1");
    expect(statuses.every((status) => status === 401 || status === 503)).toBe(true);
    expect(limiter.stats().peak).toBe(2);
    expect(limiter.stats()).toMatchObject({ active: 0, queued: 0 });
  });

  it("checks the reset code before hashing the new password: a wrong code costs no hash", async () => {
    const user = await h.createUser();
    await h.post("/api/v1/auth/password-reset/request", { email: user.email });
    await h.runOutboxOnce();
    const code = h.lastCode(user.email);
    // Fill every slot and the queue with work we control: any hash now would answer 503.
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held = Array.from({ length: 5 }, () => limiter.run(() => gate));
    const confirm = (candidate: string) =>
      h.post<ErrorBody>("/api/v1/auth/password-reset/confirm", {
        email: user.email,
        code: candidate,
        password: "a brand new password",
      });
    const wrong = await confirm(wrongFor(code));
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.code).toBe("invalid_code");
    // The right code needs a hash: busy, 503, and the code is not spent.
    const busy = await confirm(code);
    expect(busy.status).toBe(503);
    release();
    await Promise.all(held);
    expect((await confirm(code)).status).toBe(200);
  });
});

describe("sign-in lockout: refused per address and client, never per address alone", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness({ config: { trustProxy: true } });
  });
  afterAll(async () => {
    await h?.close();
  });

  const loginFrom = (ip: string, email: string, password: string) =>
    h.post<ErrorBody>("/api/v1/auth/login", { email, password }, { headers: { "x-forwarded-for": ip } });
  const noticesTo = (email: string) =>
    h.mails?.sent.filter(
      (mail) =>
        mail.to === email && mail.subject === "Many wrong passwords were tried for your Agora account",
    ) ?? [];

  it("an attacker's 10 wrong passwords lock only the attacker's client out of the account: the owner signs in from theirs", async () => {
    h.clock.advance(HOUR);
    const owner = await h.createUser();
    const attacker = "2001:db8:bad::1";
    for (let i = 0; i < 10; i += 1) {
      expect((await loginFrom(attacker, owner.email, `guess ${i}`)).status).toBe(401);
    }
    // The attacker's whole /64 is refused, even with the right password.
    for (const ip of [attacker, "2001:db8:bad::2"]) {
      const refused = await loginFrom(ip, owner.email, owner.password);
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe("rate_limited");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(800);
    }
    const own = await loginFrom("203.0.113.50", owner.email, owner.password);
    expect(own.status).toBe(202);
    const session = await h.post("/api/v1/auth/login/verify", {
      email: owner.email,
      code: h.lastCode(owner.email),
    });
    expect(session.status).toBe(200);
  });

  it("guessing from many clients never refuses the owner; the 20th wrong password mails the owner one notice", async () => {
    h.clock.advance(HOUR);
    const owner = await h.createUser();
    for (let i = 0; i < 25; i += 1) {
      expect((await loginFrom(`198.51.100.${i + 1}`, owner.email, `guess ${i}`)).status).toBe(401);
    }
    expect((await loginFrom("203.0.113.51", owner.email, owner.password)).status).toBe(202);
    while ((await h.runOutboxOnce()).claimed > 0) {
      // deliver the notice
    }
    const notices = noticesTo(owner.email);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.text).toContain("20 wrong passwords");
    expect(notices[0]?.text).not.toMatch(/guess \d/);
  });

  it("answers an unknown address exactly like an account: 401 to each guess, 429 to the 11th from one client, and the same one event at 20", async () => {
    h.clock.advance(HOUR);
    const owner = await h.createUser();
    const answers: Record<string, number[]> = {};
    for (const email of [owner.email, `nobody-${owner.username}@example.com`]) {
      const statuses: number[] = [];
      for (let i = 0; i < 19; i += 1) {
        statuses.push((await loginFrom(`192.0.2.${i + 1}`, email, `guess ${i}`)).status);
      }
      for (let i = 0; i < 11; i += 1) {
        statuses.push((await loginFrom("192.0.2.200", email, `more ${i}`)).status);
      }
      answers[email] = statuses;
    }
    const expected = [...Array<number>(29).fill(401), 429];
    expect(answers[owner.email]).toEqual(expected);
    expect(answers[`nobody-${owner.username}@example.com`]).toEqual(expected);
    const { rows } = await h.db.sql.query<{ user_id: string | null }>(
      `SELECT payload->>'user_id' AS user_id FROM outbox_events
        WHERE kind = 'identity.login_failures' AND processed_at IS NULL ORDER BY created_at, id`,
    );
    expect(rows).toEqual([{ user_id: owner.id }, { user_id: null }]);
    while ((await h.runOutboxOnce()).claimed > 0) {
      // only the account's owner is mailed
    }
    expect(noticesTo(owner.email)).toHaveLength(1);
  });

  it("the right password clears only its own client's count", async () => {
    h.clock.advance(HOUR);
    const owner = await h.createUser();
    for (let i = 0; i < 9; i += 1) {
      expect((await loginFrom("192.0.2.77", owner.email, `typo ${i}`)).status).toBe(401);
    }
    expect((await loginFrom("192.0.2.77", owner.email, owner.password)).status).toBe(202);
    for (let i = 0; i < 10; i += 1) {
      expect((await loginFrom("192.0.2.77", owner.email, `typo again ${i}`)).status).toBe(401);
    }
    expect((await loginFrom("192.0.2.77", owner.email, "one more")).status).toBe(429);
  });
});

describe("sign-in failures in parallel", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it("counts every try before the password check: 20 parallel wrong passwords get at most 10 checks", async () => {
    const user = await h.createUser();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        h.post<ErrorBody>("/api/v1/auth/login", { email: user.email, password: `wrong ${i}` }),
      ),
    );
    const statuses = results.map((res) => res.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
  });
});

describe.skipIf(!onPostgres)("mail outside transactions (PostgreSQL only: pg_stat_activity)", () => {
  let h: Harness;
  let release = () => {};
  let entered = () => {};

  beforeAll(async () => {
    const memory = createMemoryMailer(createLogger({ level: "silent" }));
    // A provider that takes its time: each send waits until the test lets it go.
    const slow = {
      async send(mail: OutgoingMail) {
        entered();
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        await memory.send(mail);
      },
    };
    h = await createHarness({ mail: { mailer: slow, kind: "smtp", memory, close: async () => {} } });
  });
  afterAll(async () => {
    await h?.close();
  });

  const openTransactions = async () =>
    (
      await h.db.sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
      )
    ).rows[0]?.n;

  it("holds no transaction open while the provider takes a sign-in or registration mail", async () => {
    const user = await h.createUser();
    const requests = [
      () => h.post("/api/v1/auth/login", { email: user.email, password: user.password }),
      () =>
        h.post("/api/v1/auth/register", {
          username: "slow_mail",
          email: "slow.mail@example.com",
          password: "a fine password",
        }),
    ];
    for (const request of requests) {
      const sending = new Promise<void>((resolve) => {
        entered = resolve;
      });
      const pending = request();
      await sending;
      expect(await openTransactions()).toBe(0);
      release();
      expect([201, 202]).toContain((await pending).status);
    }
  });
});
