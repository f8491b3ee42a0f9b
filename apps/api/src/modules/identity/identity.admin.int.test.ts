import { onPostgres } from "@agora/db/test/databases";
import { changeUserRole } from "@agora/domain/identity/change-user-role";
import { LastAdminError } from "@agora/domain/identity/identity.errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";

type ErrorBody = { error: { code: string; details?: { path: string }[] } };

describe("administering users", () => {
  let h: Harness;
  let admin: SignedIn;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.signIn({ role: "admin" });
  });
  afterAll(async () => {
    await h?.close();
  });

  const auditOf = async (targetId: string) =>
    (
      await h.db.sql.query<{
        action: string;
        actor_id: string;
        before: Record<string, unknown>;
        after: Record<string, unknown>;
        request_id: string | null;
      }>(
        "SELECT action, actor_id, before, after, request_id FROM audit_events WHERE target_id = $1 ORDER BY created_at, id",
        [targetId],
      )
    ).rows;

  describe("PATCH /api/v1/admin/users/{id}/role", () => {
    it("changes the role, effective on the user's next request, and audits it", async () => {
      const member = await h.signIn();
      const res = await h.patch<{ data: { role: string; id: string } }>(
        `/api/v1/admin/users/${member.user.id}/role`,
        { role: "provider" },
        { token: admin.accessToken },
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: member.user.id, role: "provider" });
      const me = await h.get<{ data: { role: string } }>("/api/v1/auth/me", { token: member.accessToken });
      expect(me.body.data.role).toBe("provider");
      expect(await auditOf(member.user.id)).toEqual([
        {
          action: "user.role_changed",
          actor_id: admin.user.id,
          before: { role: "member" },
          after: { role: "provider" },
          request_id: res.headers.get("x-request-id"),
        },
      ]);
    });

    it("answers 403 to a non-admin, before looking at the body, and changes nothing", async () => {
      const member = await h.signIn();
      for (const body of [{ role: "admin" }, { role: "emperor" }]) {
        const res = await h.patch<ErrorBody>(`/api/v1/admin/users/${member.user.id}/role`, body, {
          token: member.accessToken,
        });
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe("forbidden");
      }
      expect((await h.runtime.identity.repos.users.findById(member.user.id))?.role).toBe("member");
    });

    it("answers 401 without a token, 404 for an unknown or malformed id, 422 for an unknown role", async () => {
      const target = await h.createUser();
      expect((await h.patch(`/api/v1/admin/users/${target.id}/role`, { role: "admin" })).status).toBe(401);
      for (const id of [h.runtime.ids.next(), "nope"]) {
        const res = await h.patch<ErrorBody>(
          `/api/v1/admin/users/${id}/role`,
          { role: "admin" },
          { token: admin.accessToken },
        );
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe("not_found");
      }
      const bad = await h.patch<ErrorBody>(
        `/api/v1/admin/users/${target.id}/role`,
        { role: "owner" },
        { token: admin.accessToken },
      );
      expect(bad.status).toBe(422);
      expect(bad.body.error.details?.[0]?.path).toBe("role");
    });
  });

  describe("PATCH /api/v1/admin/users/{id}/status", () => {
    it("suspends: audited, the user's tokens fail at once and sign-in answers account_suspended", async () => {
      const member = await h.signIn();
      const res = await h.patch<{ data: { status: string } }>(
        `/api/v1/admin/users/${member.user.id}/status`,
        { status: "suspended" },
        { token: admin.accessToken },
      );
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe("suspended");
      const me = await h.get<ErrorBody>("/api/v1/auth/me", { token: member.accessToken });
      expect(me.status).toBe(401);
      expect((await h.post("/api/v1/auth/refresh", { refresh_token: member.refreshToken })).status).toBe(401);
      const login = await h.post<ErrorBody>("/api/v1/auth/login", {
        email: member.user.email,
        password: member.user.password,
      });
      expect(login.status).toBe(403);
      expect(login.body.error.code).toBe("account_suspended");
      expect((await auditOf(member.user.id)).map((row) => row.action)).toEqual(["user.status_changed"]);

      const back = await h.patch<{ data: { status: string } }>(
        `/api/v1/admin/users/${member.user.id}/status`,
        { status: "active" },
        { token: admin.accessToken },
      );
      expect(back.body.data.status).toBe("active");
      expect(
        (await h.post("/api/v1/auth/login", { email: member.user.email, password: member.user.password }))
          .status,
      ).toBe(202);
    });

    it("activates a pending account (verifying it)", async () => {
      const pending = await h.createUser({ status: "pending_verification" });
      const res = await h.patch(
        `/api/v1/admin/users/${pending.id}/status`,
        { status: "active" },
        { token: admin.accessToken },
      );
      expect(res.status).toBe(200);
      const { rows } = await h.db.sql.query<{ verified: boolean }>(
        "SELECT email_verified_at IS NOT NULL AS verified FROM users WHERE id = $1",
        [pending.id],
      );
      expect(rows[0]?.verified).toBe(true);
    });

    it("answers 422 for a status not allowed for users", async () => {
      const target = await h.createUser();
      for (const status of ["deleted", "pending_verification", "inactive", ""]) {
        const res = await h.patch<ErrorBody>(
          `/api/v1/admin/users/${target.id}/status`,
          { status },
          { token: admin.accessToken },
        );
        expect(res.status, status).toBe(422);
        expect(res.body.error.code).toBe("validation_failed");
      }
    });

    it("answers 404 for another kind, an unknown user, or a deleted one", async () => {
      const deleted = await h.createUser({ status: "deleted" });
      for (const path of [
        `/api/v1/admin/widgets/${deleted.id}/status`,
        `/api/v1/admin/users/${h.runtime.ids.next()}/status`,
        `/api/v1/admin/users/${deleted.id}/status`,
      ]) {
        const res = await h.patch<ErrorBody>(path, { status: "active" }, { token: admin.accessToken });
        expect(res.status, path).toBe(404);
      }
    });

    it("answers 403 to a non-admin and 401 without a token", async () => {
      const provider = await h.signIn({ role: "provider" });
      const target = await h.createUser();
      expect(
        (
          await h.patch(
            `/api/v1/admin/users/${target.id}/status`,
            { status: "suspended" },
            { token: provider.accessToken },
          )
        ).status,
      ).toBe(403);
      expect((await h.patch(`/api/v1/admin/users/${target.id}/status`, { status: "suspended" })).status).toBe(
        401,
      );
      expect((await h.runtime.identity.repos.users.findById(target.id))?.status).toBe("active");
    });
  });
});

describe("the last active administrator", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  const activeAdmins = async () =>
    (
      await h.db.sql.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM users WHERE role = 'admin' AND status = 'active'",
      )
    ).rows[0]?.n;
  const demote = (by: SignedIn, target: SignedIn) =>
    h.patch<ErrorBody>(
      `/api/v1/admin/users/${target.user.id}/role`,
      { role: "member" },
      { token: by.accessToken },
    );
  const suspend = (by: SignedIn, target: SignedIn) =>
    h.patch<ErrorBody>(
      `/api/v1/admin/users/${target.user.id}/status`,
      { status: "suspended" },
      { token: by.accessToken },
    );

  it("cannot be demoted or suspended (409 last_admin); with another admin it can, and then the other cannot", async () => {
    const first = await h.signIn({ role: "admin" });
    for (const res of [await demote(first, first), await suspend(first, first)]) {
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("last_admin");
    }
    expect(await activeAdmins()).toBe(1);

    const second = await h.signIn({ role: "admin" });
    expect((await demote(second, first)).status).toBe(200);
    const last = await suspend(second, second);
    expect(last.status).toBe(409);
    expect(last.body.error.code).toBe("last_admin");
    // A suspended admin does not count: promoting one back leaves the active one the last.
    expect(await activeAdmins()).toBe(1);
    // Changing anyone else stays possible.
    const member = await h.signIn();
    expect((await suspend(second, member)).status).toBe(200);
  });

  const noAdmins = () => h.db.sql.query("UPDATE users SET role = 'member' WHERE role = 'admin'");
  /** A moment published by `author`, reported by a fresh member: the report's id. */
  const reportedMomentOf = async (author: SignedIn) => {
    const moment = await h.post<{ data: { id: string } }>(
      "/api/v1/community/moments",
      { body: "a moment" },
      { token: author.accessToken },
    );
    expect(moment.status).toBe(201);
    const reporter = await h.signIn();
    const report = await h.post<{ data: { id: string } }>(
      `/api/v1/community/moments/${moment.body.data.id}/report`,
      { reason: "spam" },
      { token: reporter.accessToken },
    );
    expect(report.status).toBe(201);

    return report.body.data.id;
  };
  const suspendByModeration = (by: SignedIn, reportId: string) =>
    h.post<ErrorBody>(
      `/api/v1/admin/community/reports/${reportId}/moderate`,
      { action: "suspend_user" },
      { token: by.accessToken },
    );
  const deleteSelf = (who: SignedIn) => h.delete<ErrorBody>("/api/v1/auth/me", { token: who.accessToken });
  const statusOf = async (id: string) =>
    (await h.db.sql.query<{ status: string }>("SELECT status FROM users WHERE id = $1", [id])).rows[0]
      ?.status;

  it("cannot be suspended through moderation: suspend_user on the sole admin's moment is 409 last_admin and keeps nothing", async () => {
    await noAdmins();
    const only = await h.signIn({ role: "admin" });
    const reportId = await reportedMomentOf(only);
    const refused = await suspendByModeration(only, reportId);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("last_admin");
    expect(await statusOf(only.user.id)).toBe("active");
    expect((await h.get("/api/v1/auth/me", { token: only.accessToken })).status).toBe(200);
    const { rows } = await h.db.sql.query<{ status: string }>("SELECT status FROM reports WHERE id = $1", [
      reportId,
    ]);
    expect(rows[0]?.status).toBe("open");

    // With another active admin the same decision passes.
    const other = await h.signIn({ role: "admin" });
    expect((await suspendByModeration(other, reportId)).status).toBe(200);
    expect(await statusOf(only.user.id)).toBe("suspended");
    expect(await activeAdmins()).toBe(1);
  });

  it("cannot delete their own account while the sole admin (409 last_admin); with another admin they can", async () => {
    await noAdmins();
    const only = await h.signIn({ role: "admin" });
    const refused = await deleteSelf(only);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("last_admin");
    expect(await statusOf(only.user.id)).toBe("active");
    expect((await h.get("/api/v1/auth/me", { token: only.accessToken })).status).toBe(200);

    const other = await h.signIn({ role: "admin" });
    expect((await deleteSelf(only)).status).toBe(200);
    expect(await statusOf(only.user.id)).toBe("deleted");
    expect((await deleteSelf(other)).status).toBe(409);
    // A member deletes their account as before.
    expect((await deleteSelf(await h.signIn())).status).toBe(200);
  });

  it.skipIf(!onPostgres)(
    "leaves one active admin when the last two delete themselves, or suspend each other through moderation, at once (PostgreSQL only)",
    async () => {
      for (let round = 0; round < 3; round += 1) {
        await noAdmins();
        const a = await h.signIn({ role: "admin" });
        const b = await h.signIn({ role: "admin" });
        const deletions = await Promise.all([deleteSelf(a), deleteSelf(b)]);
        expect(deletions.map((res) => res.status).sort(), `round ${round}`).toEqual([200, 409]);
        expect(await activeAdmins()).toBe(1);

        await noAdmins();
        const c = await h.signIn({ role: "admin" });
        const d = await h.signIn({ role: "admin" });
        const [ofC, ofD] = [await reportedMomentOf(c), await reportedMomentOf(d)];
        const moderations = await Promise.all([suspendByModeration(c, ofD), suspendByModeration(d, ofC)]);
        const statuses = moderations.map((res) => res.status).sort();
        // The loser is refused by the row locks (409), or already by authorization if the winner
        // committed before its request was authenticated (401: a suspended admin's session ends).
        expect(statuses[0], `round ${round}`).toBe(200);
        expect([401, 409]).toContain(statuses[1]);
        expect(await activeAdmins()).toBe(1);

        // A deletion racing a demotion of the other admin: one of them is refused.
        await noAdmins();
        const e = await h.signIn({ role: "admin" });
        const f = await h.signIn({ role: "admin" });
        const mixed = await Promise.all([deleteSelf(e), demote(e, f)]);
        expect(await activeAdmins(), JSON.stringify(mixed.map((res) => res.status))).toBe(1);
      }
    },
  );

  it.skipIf(!onPostgres)(
    "leaves one active admin when two admins demote each other at once (PostgreSQL only: parallel connections)",
    async () => {
      await h.db.sql.query("UPDATE users SET role = 'member' WHERE role = 'admin'");
      for (let round = 0; round < 5; round += 1) {
        const a = await h.signIn({ role: "admin" });
        const b = await h.signIn({ role: "admin" });
        // Through HTTP the loser may already fail authorization (403) if the winner committed first.
        const results = await Promise.all([demote(a, b), demote(b, a)]);
        const statuses = results.map((res) => res.status).sort();
        expect(statuses[0], `round ${round}`).toBe(200);
        expect([403, 409]).toContain(statuses[1]);
        expect(await activeAdmins()).toBe(1);
        // Both past authorization, inside their transactions at once: the row locks decide.
        const c = await h.signIn({ role: "admin" });
        const d = await h.signIn({ role: "admin" });
        await h.db.sql.query("UPDATE users SET role = 'member' WHERE role = 'admin' AND id NOT IN ($1, $2)", [
          c.user.id,
          d.user.id,
        ]);
        const asAdmin = (s: SignedIn) => ({
          userId: s.user.id,
          role: "admin" as const,
          sessionId: s.sessionId,
        });
        const outcomes = await Promise.allSettled([
          changeUserRole(h.runtime.identity, asAdmin(c), { userId: d.user.id, role: "member" }),
          changeUserRole(h.runtime.identity, asAdmin(d), { userId: c.user.id, role: "member" }),
        ]);
        expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
        const refused = outcomes.find((outcome) => outcome.status === "rejected");
        expect((refused as PromiseRejectedResult | undefined)?.reason).toBeInstanceOf(LastAdminError);
        expect(await activeAdmins()).toBe(1);
        await h.db.sql.query("UPDATE users SET role = 'member' WHERE role = 'admin'");
      }
    },
  );
});
