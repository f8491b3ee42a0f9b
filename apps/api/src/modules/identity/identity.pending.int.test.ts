import { createHousekeeper } from "@agora/db/repositories/housekeeping.repository";
import { onPostgres } from "@agora/db/test/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../test/harness";

type ErrorBody = { error: { code: string } };
type SessionBody = { data: { access_token: string; user: { email: string; username: string } } };

const HOUR = 3600_000;

/** The address both parties use: its mailbox belongs to the owner alone. */
const registration = (email: string, username: string, password: string) => ({
  username,
  email,
  password,
  display_name: username,
});

describe("pending registrations: the address's owner always ends with the account", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  /** What the newest verification mail to `email` links to: the account id and the code. */
  const mailedLink = (email: string) => {
    const mail = h.mails?.last(email);
    const line = mail?.text.split("\n").find((text) => text.startsWith("agora://verify-email?"));
    if (!line) {
      throw new Error(`no verification link mailed to ${email}`);
    }
    const url = new URL(line);

    return { userId: url.searchParams.get("user_id") ?? "", code: url.searchParams.get("code") ?? "", mail };
  };
  /** Password, then the mailed code: a session only for whoever holds the password and the mailbox. */
  const signIn = async (email: string, password: string) => {
    const started = await h.post<ErrorBody>("/api/v1/auth/login", { email, password });
    if (started.status !== 202) {
      return started.status;
    }
    const verified = await h.post<SessionBody>("/api/v1/auth/login/verify", {
      email,
      code: h.lastCode(email),
    });

    return verified.status === 200 ? verified.body.data : verified.status;
  };
  const register = (email: string, username: string, password: string) =>
    h.post<{ data: { user_id: string } }>("/api/v1/auth/register", registration(email, username, password));

  it("the verification mail carries what verify-email needs: a link with the account id and the code", async () => {
    const res = await register("linked@example.com", "linked_one", "the owner's password");
    expect(res.status).toBe(201);
    const link = mailedLink("linked@example.com");
    expect(link.userId).toBe(res.body.data.user_id);
    expect(link.code).toBe(h.lastCode("linked@example.com"));
    expect(link.mail?.text).toContain("linked_one");
    expect(link.mail?.html).toContain(`user_id=${res.body.data.user_id}`);
    // The response is not needed: the link alone verifies the account.
    const verify = await h.post("/api/v1/auth/verify-email", { user_id: link.userId, code: link.code });
    expect(verify.status).toBe(200);
  });

  it("a squatter's pending registration gives way to the owner's: the owner verifies from the mail and signs in; the squatter's password never does", async () => {
    const address = "victim.one@example.com";
    const squatter = await register(address, "squatter_one", "the squatter's password");
    expect(squatter.status).toBe(201);
    const squatterLink = mailedLink(address);

    const owner = await register(address, "owner_one", "the owner's own password");
    expect(owner.status).toBe(201);
    expect(Object.keys(owner.body.data)).toEqual(Object.keys(squatter.body.data));
    const link = mailedLink(address);
    expect(link.userId).toBe(owner.body.data.user_id);
    // The squatter's registration is gone: its id and code verify nothing any more.
    const stale = await h.post<ErrorBody>("/api/v1/auth/verify-email", {
      user_id: squatterLink.userId,
      code: squatterLink.code,
    });
    expect(stale.status).toBe(422);
    expect(stale.body.error.code).toBe("invalid_code");

    expect(
      (await h.post("/api/v1/auth/verify-email", { user_id: link.userId, code: link.code })).status,
    ).toBe(200);
    expect(await signIn(address, "the squatter's password")).toBe(401);
    const session = await signIn(address, "the owner's own password");
    expect(session).toMatchObject({ user: { email: address, username: "owner_one" } });
    // The squatter's username was freed with its registration.
    expect((await register("someone.else@example.com", "squatter_one", "another password")).status).toBe(201);
  });

  it("a password reset by the owner takes over someone else's pending registration, with the owner's password", async () => {
    const address = "victim.two@example.com";
    expect((await register(address, "squatter_two", "the squatter's password")).status).toBe(201);
    const request = await h.post("/api/v1/auth/password-reset/request", { email: address });
    expect(request.status).toBe(202);
    await h.runOutboxOnce();
    expect(h.mails?.last(address)?.subject).toBe("Reset your Agora password");
    const confirm = await h.post("/api/v1/auth/password-reset/confirm", {
      email: address,
      code: h.lastCode(address),
      password: "the owner's reset password",
    });
    expect(confirm.status).toBe(200);

    expect(await signIn(address, "the squatter's password")).toBe(401);
    const session = await signIn(address, "the owner's reset password");
    expect(session).toMatchObject({ user: { email: address } });
    const { rows } = await h.db.sql.query<{ status: string; verified: boolean }>(
      "SELECT status, email_verified_at IS NOT NULL AS verified FROM users WHERE email = $1",
      [address],
    );
    expect(rows).toEqual([{ status: "active", verified: true }]);
  });

  it("answers registration for a new, a pending and a verified address with the same status and body shape", async () => {
    await register("held.pending@example.com", "held_pending", "a first password");
    const verified = await h.createUser({ email: "held.verified@example.com" });
    const answers = [
      await register("fresh.address@example.com", "shape_one", "a fine password"),
      await register("held.pending@example.com", "shape_two", "a fine password"),
      await register(verified.email, "shape_three", "a fine password"),
    ];
    for (const res of answers) {
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(Object.keys(answers[0]?.body ?? {}));
      expect(Object.keys(res.body.data)).toEqual(["user_id"]);
      expect(res.body.data.user_id).toMatch(/^[0-9a-f-]{36}$/);
    }
    // A verified account is never replaced: its owner's password still works.
    expect(await signIn(verified.email, verified.password)).toMatchObject({
      user: { email: verified.email },
    });
  });

  it("decides 409 on the username alone, the pending registration's own included, and keeps that registration", async () => {
    const address = "own.name@example.com";
    const first = await register(address, "own_name", "a first password");
    const again = await h.post<ErrorBody>(
      "/api/v1/auth/register",
      registration(address, "own_name", "a second one"),
    );
    const elsewhere = await h.post<ErrorBody>(
      "/api/v1/auth/register",
      registration("elsewhere@example.com", "own_name", "a second one"),
    );
    for (const res of [again, elsewhere]) {
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("username_taken");
    }
    expect((await h.runtime.identity.repos.users.findByEmail(address))?.id).toBe(first.body.data.user_id);
  });

  // Concurrency needs real connections: PGlite runs one statement at a time.
  it.skipIf(!onPostgres)(
    "replaces a pending registration once when several registrations for its address arrive at once",
    async () => {
      const address = "raced.address@example.com";
      expect((await register(address, "raced_squatter", "the squatter's password")).status).toBe(201);
      const answers = await Promise.all(
        [1, 2, 3].map((n) => register(address, `raced_owner_${n}`, `the password number ${n}`)),
      );
      // A failure names what the server logged at error level (seen once in CI as a 500, not reproduced).
      const logged = h.logs.lines.filter((line) => (line as { level?: number }).level === 50);
      expect(
        answers.map((res) => res.status),
        JSON.stringify(logged),
      ).toEqual([201, 201, 201]);
      const { rows } = await h.db.sql.query<{ id: string; username: string }>(
        "SELECT id, username::text AS username FROM users WHERE email = $1",
        [address],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]?.username).not.toBe("raced_squatter");
      expect(answers.map((res) => res.body.data.user_id)).toContain(rows[0]?.id);
      // The one kept had its code mailed: the mailbox's owner can verify it.
      const links = (h.mails?.sent ?? [])
        .filter((mail) => mail.to === address)
        .flatMap((mail) => mail.text.split("\n").filter((line) => line.startsWith("agora://verify-email?")))
        .map((line) => new URL(line).searchParams.get("user_id"));
      expect(links).toContain(rows[0]?.id);
    },
  );

  it("keeps a username held by another account: 409, and the pending registration stays", async () => {
    const address = "keeps.pending@example.com";
    const first = await register(address, "keeps_pending", "a first password");
    await h.createUser({ username: "someone_taken" });
    const res = await h.post<ErrorBody>(
      "/api/v1/auth/register",
      registration(address, "someone_taken", "a second password"),
    );
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("username_taken");
    const stored = await h.runtime.identity.repos.users.findByEmail(address);
    expect(stored?.id).toBe(first.body.data.user_id);
  });
});

describe("pending registrations never verified are purged after PENDING_ACCOUNT_TTL_SECONDS", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it("removes them after 48 hours by default, freeing the address and the username; active accounts stay", async () => {
    expect(h.config.pendingAccountTtlSeconds).toBe(48 * 3600);
    const housekeeper = createHousekeeper(h.db.sql, {
      pendingAccountTtlSeconds: h.config.pendingAccountTtlSeconds,
    });
    const res = await h.post<{ data: { user_id: string } }>(
      "/api/v1/auth/register",
      registration("never.verified@example.com", "never_verified", "a fine password"),
    );
    const pendingId = res.body.data.user_id;
    const code = h.lastCode("never.verified@example.com");
    const active = await h.createUser();
    // A block naming the pending account does not keep it.
    const blocker = await h.signIn();
    expect(
      (await h.post(`/api/v1/community/users/${pendingId}/block`, {}, { token: blocker.accessToken })).status,
    ).toBe(200);
    const taken = await h.post<ErrorBody>(
      "/api/v1/auth/register",
      registration("other.address@example.com", "never_verified", "a fine password"),
    );
    expect(taken.status).toBe(409);

    h.clock.advance(48 * HOUR - 1000);
    expect(await housekeeper.purge(h.clock.now())).toMatchObject({ pending_accounts: 0 });
    expect(await h.runtime.identity.repos.users.findById(pendingId)).not.toBeNull();

    h.clock.advance(2000);
    expect(await housekeeper.purge(h.clock.now())).toMatchObject({
      pending_accounts: 1,
      pending_accounts_failed: 0,
    });
    expect(await h.runtime.identity.repos.users.findById(pendingId)).toBeNull();
    expect(await h.runtime.identity.repos.users.findById(active.id)).not.toBeNull();
    const stale = await h.post("/api/v1/auth/verify-email", { user_id: pendingId, code });
    expect(stale.status).toBe(422);
    const again = await h.post<{ data: { user_id: string } }>(
      "/api/v1/auth/register",
      registration("other.address@example.com", "never_verified", "a fine password"),
    );
    expect(again.status).toBe(201);
  });

  it("honours PENDING_ACCOUNT_TTL_SECONDS and never removes a verified account", async () => {
    const housekeeper = createHousekeeper(h.db.sql, { pendingAccountTtlSeconds: 3600 });
    const res = await h.post<{ data: { user_id: string } }>(
      "/api/v1/auth/register",
      registration("verified.in.time@example.com", "verified_in_time", "a fine password"),
    );
    const id = res.body.data.user_id;
    const code = h.lastCode("verified.in.time@example.com");
    expect((await h.post("/api/v1/auth/verify-email", { user_id: id, code })).status).toBe(200);
    const unverified = await h.post<{ data: { user_id: string } }>(
      "/api/v1/auth/register",
      registration("late.one@example.com", "late_one", "a fine password"),
    );
    h.clock.advance(HOUR + 1000);
    await housekeeper.purge(h.clock.now());
    expect((await h.runtime.identity.repos.users.findById(id))?.status).toBe("active");
    expect(await h.runtime.identity.repos.users.findById(unverified.body.data.user_id)).toBeNull();
  });
});
