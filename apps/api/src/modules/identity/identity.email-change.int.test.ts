import { onPostgres } from "@agora/db/test/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";

type ErrorBody = { error: { code: string } };

describe("changing the email address", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  const change = (s: SignedIn, newEmail: string, password = s.user.password) =>
    h.post<ErrorBody>("/api/v1/auth/email", { new_email: newEmail, password }, { token: s.accessToken });
  const verify = (s: SignedIn, code: string) =>
    h.post<ErrorBody>("/api/v1/auth/email/verify", { code }, { token: s.accessToken });
  const undo = (token: string) => h.post<ErrorBody>("/api/v1/auth/email/undo", { token });
  /** The undo token of the newest mail to `email` (the worker mails it). */
  const undoToken = async (email: string): Promise<string> => {
    await h.runOutboxOnce();
    const token = h.mails?.last(email)?.text.match(/agora:\/\/email-undo\?token=([\w-]+)/)?.[1];
    if (!token) {
      throw new Error(`no undo link mailed to ${email}`);
    }

    return token;
  };
  /** Password, then the mailed code: the status of the last step. */
  const login = async (email: string, password: string) => {
    const started = await h.post("/api/v1/auth/login", { email, password });
    if (started.status !== 202) {
      return started.status;
    }
    h.clock.advance(61_000);

    return (await h.post("/api/v1/auth/login/verify", { email, code: h.lastCode(email) })).status;
  };
  const mailsTo = (email: string) => h.mails?.sent.filter((mail) => mail.to === email).length ?? 0;

  it("moves sign-in to the new address, tells the old one with an undo link, and the undo restores it and ends every session", async () => {
    const s = await h.signIn();
    const other = await h.openSession(s.user);
    const requested = await change(s, "New.Home@Example.com");
    expect(requested.status).toBe(202);
    expect(requested.body).toMatchObject({ data: { status: "accepted" } });
    const code = h.lastCode("new.home@example.com");
    const switched = await verify(s, code);
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ data: { status: "email_changed" } });
    expect(
      (await h.get<{ data: { email: string } }>("/api/v1/auth/me", { token: s.accessToken })).body.data.email,
    ).toBe("new.home@example.com");
    // The code works once.
    expect((await verify(s, code)).status).toBe(422);

    expect(await login(s.user.email, s.user.password)).toBe(401);
    expect(await login("new.home@example.com", s.user.password)).toBe(200);

    const token = await undoToken(s.user.email);
    expect(h.mails?.last(s.user.email)?.subject).toBe("The email address of your Agora account was changed");
    expect(h.mails?.last(s.user.email)?.text).toContain("reset your password");
    // Nothing that opens the account is at rest in the outbox.
    const { rows } = await h.db.sql.query<{ payload: unknown }>(
      "SELECT payload FROM outbox_events WHERE kind = 'identity.email_changed'",
      [],
    );
    expect(JSON.stringify(rows)).not.toContain(token);

    const restored = await undo(token);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ data: { status: "email_restored" } });
    for (const session of [s, other]) {
      expect((await h.get("/api/v1/auth/me", { token: session.accessToken })).status).toBe(401);
      expect((await h.post("/api/v1/auth/refresh", { refresh_token: session.refreshToken })).status).toBe(
        401,
      );
    }
    expect(await login("new.home@example.com", s.user.password)).toBe(401);
    expect(await login(s.user.email, s.user.password)).toBe(200);
    // The link works once.
    const again = await undo(token);
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe("invalid_token");
  });

  it("lets the owner take the account back after a thief changed the address twice, and voids the thief's own link", async () => {
    const thief = await h.signIn();
    const owner = thief.user.email;
    expect((await change(thief, "first.hop@example.com")).status).toBe(202);
    expect((await verify(thief, h.lastCode("first.hop@example.com"))).status).toBe(200);
    const ownersLink = await undoToken(owner);
    h.clock.advance(61_000);
    expect((await change(thief, "second.hop@example.com")).status).toBe(202);
    expect((await verify(thief, h.lastCode("second.hop@example.com"))).status).toBe(200);
    const thiefsLink = await undoToken("first.hop@example.com");

    expect((await undo(ownersLink)).status).toBe(200);
    expect(await login(owner, thief.user.password)).toBe(200);
    expect((await h.get("/api/v1/auth/me", { token: thief.accessToken })).status).toBe(401);
    // The later change's link is spent with it: the account stays on the owner's address.
    const moved = await undo(thiefsLink);
    expect(moved.status).toBe(422);
    expect(moved.body.error.code).toBe("invalid_token");
    expect(await login("first.hop@example.com", thief.user.password)).toBe(401);
  });

  it("answers a taken address exactly as a free one: no code is mailed to it, its owner gets a notice", async () => {
    const holder = await h.createUser();
    const a = await h.signIn();
    const b = await h.signIn();
    const free = await change(a, `free-${a.user.username}@example.com`);
    const mailsBefore = mailsTo(holder.email);
    const taken = await change(b, holder.email);
    expect(taken.status).toBe(free.status);
    type Envelope = { data: unknown; [key: string]: unknown };
    const [takenBody, freeBody] = [taken.body as unknown as Envelope, free.body as unknown as Envelope];
    expect(Object.keys(takenBody)).toEqual(Object.keys(freeBody));
    expect(takenBody.data).toEqual(freeBody.data);
    expect(taken.headers.get("content-type")).toBe(free.headers.get("content-type"));
    expect(mailsTo(holder.email)).toBe(mailsBefore + 1);
    const notice = h.mails?.last(holder.email);
    expect(notice?.subject).toBe("Someone tried to use your email address for another Agora account");
    expect(notice?.text).not.toMatch(/^\d{6}$/m);
    // The same code work was done (a code stored, its cooldown started): a second try is 429 alike.
    expect((await change(a, `free-${a.user.username}@example.com`)).status).toBe(429);
    expect((await change(b, holder.email)).status).toBe(429);
    // No code can complete it.
    expect((await verify(b, "123456")).status).toBe(422);
    expect(
      (await h.get<{ data: { email: string } }>("/api/v1/auth/me", { token: b.accessToken })).body.data.email,
    ).toBe(b.user.email);
  });

  it("a pending registration of the new address does not block the change and is removed by it", async () => {
    const s = await h.signIn();
    const address = `squatted-${s.user.username}@example.com`;
    const registered = await h.post<{ data: { user_id: string } }>("/api/v1/auth/register", {
      username: `squat_${s.user.username}`.slice(0, 32),
      email: address,
      password: "the squatter's password",
      display_name: "Squatter",
    });
    expect(registered.status).toBe(201);
    h.clock.advance(61_000);
    expect((await change(s, address)).status).toBe(202);
    expect(h.mails?.last(address)?.subject).toBe("Confirm your new Agora email address");
    expect((await verify(s, h.lastCode(address))).status).toBe(200);
    const { rows } = await h.db.sql.query<{ id: string }>("SELECT id FROM users WHERE id = $1", [
      registered.body.data.user_id,
    ]);
    expect(rows).toEqual([]);
    expect(await login(address, s.user.password)).toBe(200);
  });

  it("keeps the old address reserved while the undo is live: registering it creates no account and mails nobody", async () => {
    const s = await h.signIn();
    const old = s.user.email;
    await change(s, `moved-${s.user.username}@example.com`);
    expect((await verify(s, h.lastCode(`moved-${s.user.username}@example.com`))).status).toBe(200);
    await h.runOutboxOnce();
    const mailsBefore = h.mails?.sent.length ?? 0;
    const registered = await h.post<{ data: { user_id: string } }>("/api/v1/auth/register", {
      username: `grab_${s.user.username}`.slice(0, 32),
      email: old,
      password: "a grabber's password",
      display_name: "Grabber",
    });
    expect(registered.status).toBe(201);
    expect(h.mails?.sent.length).toBe(mailsBefore);
    const { rows } = await h.db.sql.query("SELECT id FROM users WHERE email = $1", [old]);
    expect(rows).toEqual([]);
    // An email change to it by another account mails no code either.
    const other = await h.signIn();
    expect((await change(other, old)).status).toBe(202);
    expect(h.mails?.sent.length).toBe(mailsBefore);
    // After 7 days the address is free again.
    h.clock.advance(7 * 24 * 3600 * 1000 + 1000);
    const later = await h.signIn();
    expect((await change(later, old)).status).toBe(202);
    expect(h.mails?.last(old)?.subject).toBe("Confirm your new Agora email address");
  });

  it("a wrong password is 401 invalid_credentials and counts as a wrong sign-in password", async () => {
    const s = await h.signIn();
    const wrong = await change(s, `x-${s.user.username}@example.com`, "not the password");
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe("invalid_credentials");
    const { rows } = await h.db.sql.query<{ key: string }>("SELECT key FROM rate_limits WHERE key LIKE $1", [
      `login:%:${s.user.email}%`,
    ]);
    expect(rows.map((row) => row.key).some((key) => key.startsWith(`login:failures:${s.user.email}:`))).toBe(
      true,
    );
    expect(h.mails?.last(`x-${s.user.username}@example.com`)).toBeUndefined();
  });

  it("a wrong code is 422 invalid_code and changes nothing; a code without a pending change too", async () => {
    const s = await h.signIn();
    expect((await verify(s, "123456")).status).toBe(422);
    await change(s, `w-${s.user.username}@example.com`);
    const code = h.lastCode(`w-${s.user.username}@example.com`);
    const wrong = await verify(s, code === "000000" ? "000001" : "000000");
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.code).toBe("invalid_code");
    expect(
      (await h.get<{ data: { email: string } }>("/api/v1/auth/me", { token: s.accessToken })).body.data.email,
    ).toBe(s.user.email);
    expect((await undo("not-a-token")).body.error.code).toBe("invalid_token");
    expect((await h.post("/api/v1/auth/email", { new_email: "a@example.com", password: "x" })).status).toBe(
      401,
    );
  });

  it.skipIf(!onPostgres)(
    "of two accounts verifying a change to one address in parallel, exactly one wins; the other gets 409 email_taken and keeps its address (PostgreSQL only: real concurrency)",
    async () => {
      const a = await h.signIn();
      const b = await h.signIn();
      const target = `race-${a.user.username}@example.com`;
      expect((await change(a, target)).status).toBe(202);
      const codeA = h.lastCode(target);
      expect((await change(b, target)).status).toBe(202);
      const codeB = h.lastCode(target);
      const results = await Promise.all([verify(a, codeA), verify(b, codeB)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const loser = results[0]?.status === 409 ? a : b;
      const lost = results.find((r) => r.status === 409);
      expect(lost?.body.error.code).toBe("email_taken");
      const me = await h.get<{ data: { email: string } }>("/api/v1/auth/me", { token: loser.accessToken });
      expect(me.body.data.email).toBe(loser.user.email);
      const { rows } = await h.db.sql.query("SELECT id FROM email_change_undos WHERE user_id = $1", [
        loser.user.id,
      ]);
      expect(rows).toEqual([]);
    },
  );
});
