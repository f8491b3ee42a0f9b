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
