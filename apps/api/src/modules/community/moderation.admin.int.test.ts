import type { ModeratedReportDto } from "@agora/contracts/community.admin";
import { onPostgres } from "@agora/db/test/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";

type Meta = { limit: number; offset: number; total: number };
type Envelope<T> = {
  data: T;
  meta: Meta | null;
  error: { code: string; details?: { path: string }[] } | null;
};
type Notification = { kind: string; title: string; body: string; data: Record<string, unknown> };
type Overview = {
  marketplace: {
    users_by_status: Record<string, number>;
    providers: { pending: number; approved: number };
    listings_by_status: Record<string, number>;
    orders_awaiting_action: number;
    payments_awaiting_review: number;
  };
  moderation: { open_reports: number; reports_over_24h: number; hidden_moments: number };
};

describe("moderation, overview and the reports export", () => {
  let h: Harness;
  let admin: SignedIn;
  let member: SignedIn;
  let accountant: SignedIn;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.signIn({ role: "admin" });
    member = await h.signIn();
    accountant = await h.signIn({ role: "accountant" });
  });
  afterAll(async () => {
    await h?.close();
  });

  const as = (s: SignedIn) => ({ token: s.accessToken });
  const publish = async (who: SignedIn, body = "hello") => {
    const res = await h.post<Envelope<{ id: string }>>("/api/v1/community/moments", { body }, as(who));
    expect(res.status).toBe(201);
    h.clock.advance(1000);

    return res.body.data.id;
  };
  const report = async (
    momentId: string,
    who: SignedIn,
    body: Record<string, unknown> = { reason: "spam" },
  ) => {
    const res = await h.post<Envelope<{ id: string }>>(
      `/api/v1/community/moments/${momentId}/report`,
      body,
      as(who),
    );
    expect(res.status).toBe(201);
    h.clock.advance(1000);

    return res.body.data.id;
  };
  /** A moment by a fresh author, reported by a fresh reporter. */
  const reported = async () => {
    const author = await h.signIn();
    const reporter = await h.signIn();
    const momentId = await publish(author);
    const reportId = await report(momentId, reporter);

    return { author, reporter, momentId, reportId };
  };
  const moderate = (id: string, body: unknown, who: SignedIn = admin) =>
    h.post<Envelope<ModeratedReportDto>>(`/api/v1/admin/community/reports/${id}/moderate`, body, as(who));
  const move = (id: string, status: unknown, who: SignedIn = admin) =>
    h.post<Envelope<ModeratedReportDto>>(`/api/v1/admin/community/reports/${id}/status`, { status }, as(who));
  const feedIds = async (who: SignedIn) =>
    (await h.get<Envelope<{ id: string }[]>>("/api/v1/community/feed", as(who))).body.data.map((m) => m.id);
  const inbox = async (who: SignedIn) =>
    (await h.get<Envelope<Notification[]>>("/api/v1/notifications", as(who))).body.data;
  const auditOf = async (targetId: string) =>
    (
      await h.get<Envelope<{ action: string; before: unknown; after: unknown; request_id: string | null }[]>>(
        `/api/v1/admin/audit?target_id=${targetId}`,
        as(admin),
      )
    ).body.data;

  describe("GET /admin/community/reports", () => {
    it("lists reports oldest first with the moment's author, filtered by status and paged", async () => {
      const a = await reported();
      const b = await reported();
      const all = await h.get<Envelope<ModeratedReportDto[]>>(
        "/api/v1/admin/community/reports?status=open&limit=100",
        as(admin),
      );
      expect(all.status).toBe(200);
      const ids = all.body.data.map((r) => r.id);
      expect(ids.indexOf(a.reportId)).toBeLessThan(ids.indexOf(b.reportId));
      expect(all.body.data.find((r) => r.id === a.reportId)).toEqual({
        id: a.reportId,
        moment_id: a.momentId,
        reason: "spam",
        note: null,
        status: "open",
        created_at: expect.any(String),
        reporter_id: a.reporter.user.id,
        moment_author_id: a.author.user.id,
        moment_hidden: false,
        moment_deleted: false,
        reviewer_id: null,
        resolution_note: null,
        reviewed_at: null,
        resolved_at: null,
        updated_at: expect.any(String),
      });
      expect(all.body.meta).toEqual({ limit: 100, offset: 0, total: all.body.data.length });

      const page = await h.get<Envelope<ModeratedReportDto[]>>(
        "/api/v1/admin/community/reports?limit=1&offset=1",
        as(admin),
      );
      expect(page.body.data).toHaveLength(1);
      expect(page.body.meta?.total).toBeGreaterThanOrEqual(2);

      await move(a.reportId, "reviewing");
      const reviewing = await h.get<Envelope<ModeratedReportDto[]>>(
        "/api/v1/admin/community/reports?status=reviewing",
        as(admin),
      );
      expect(reviewing.body.data.map((r) => r.id)).toEqual([a.reportId]);
    });

    it("refuses an unknown status or page (422), a member or accountant (403), no token (401)", async () => {
      const bad = await h.get<Envelope<null>>("/api/v1/admin/community/reports?status=closed", as(admin));
      expect(bad.status).toBe(422);
      expect(bad.body.error?.code).toBe("validation_failed");
      expect(bad.body.error?.details?.map((d) => d.path)).toEqual(["status"]);
      expect((await h.get("/api/v1/admin/community/reports?limit=101", as(admin))).status).toBe(422);
      expect((await h.get("/api/v1/admin/community/reports?offset=-1", as(admin))).status).toBe(422);
      expect((await h.get("/api/v1/admin/community/reports", as(member))).status).toBe(403);
      expect((await h.get("/api/v1/admin/community/reports", as(accountant))).status).toBe(403);
      expect((await h.get("/api/v1/admin/community/reports")).status).toBe(401);
    });
  });

  describe("POST /admin/community/reports/{id}/moderate", () => {
    it("hides the moment, resolves the report, audits both and tells the reporter", async () => {
      const { author, reporter, momentId, reportId } = await reported();
      const bystander = await h.signIn();
      expect(await feedIds(bystander)).toContain(momentId);

      const res = await moderate(reportId, { action: "hide_moment", note: "  Spam link farm  " });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id: reportId,
        status: "resolved",
        moment_hidden: true,
        reviewer_id: admin.user.id,
        resolution_note: "Spam link farm",
        reviewed_at: h.clock.now().toISOString(),
        resolved_at: h.clock.now().toISOString(),
      });
      expect(await feedIds(bystander)).not.toContain(momentId);
      expect(await feedIds(author)).toContain(momentId);

      const momentAudit = await auditOf(momentId);
      expect(momentAudit).toEqual([
        expect.objectContaining({
          action: "moment.hidden",
          before: { hidden: false },
          after: { hidden: true },
        }),
      ]);
      expect(momentAudit[0]?.request_id).toEqual(expect.any(String));
      expect(await auditOf(reportId)).toEqual([
        expect.objectContaining({
          action: "report.moderated",
          before: { status: "open" },
          after: { status: "resolved", action: "hide_moment" },
        }),
      ]);

      expect(await inbox(reporter)).toEqual([]);
      await h.runOutboxOnce();
      const told = await inbox(reporter);
      expect(told).toEqual([
        expect.objectContaining({
          kind: "report.closed",
          title: "Your report was reviewed",
          body: "The moment you reported was hidden.",
          data: { report_id: reportId, moment_id: momentId, status: "resolved", action: "hide_moment" },
        }),
      ]);
      // The notification names no reporter to anyone else: the author's inbox has nothing of it.
      expect((await inbox(author)).filter((n) => n.kind === "report.closed")).toEqual([]);

      const again = await moderate(reportId, { action: "none" });
      expect(again.status).toBe(422);
      expect(again.body.error?.code).toBe("invalid_transition");
    });

    it("restores a hidden moment from a report still open, and that decides this report alone", async () => {
      const { momentId, reportId } = await reported();
      const second = await report(momentId, await h.signIn(), { reason: "other" });
      // Hidden with reports still open (as before moment-wide decisions): restoring decides one.
      await h.db.sql.query("UPDATE moments SET hidden_at = $2, hidden_by = $3 WHERE id = $1", [
        momentId,
        h.clock.now(),
        admin.user.id,
      ]);
      const late = await h.post(
        `/api/v1/community/moments/${momentId}/report`,
        { reason: "spam" },
        as(member),
      );
      expect(late.status).toBe(404);
      const res = await moderate(second, { action: "restore_moment" });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: "resolved", moment_hidden: false });
      expect(await feedIds(member)).toContain(momentId);
      expect((await auditOf(momentId)).map((e) => e.action)).toEqual(["moment.restored"]);
      const first = await h.db.sql.query<{ status: string }>("SELECT status FROM reports WHERE id = $1", [
        reportId,
      ]);
      expect(first.rows[0]?.status).toBe("open");
    });

    it("suspends the moment's author: every session ends at once", async () => {
      const { author, reportId } = await reported();
      const res = await moderate(reportId, { action: "suspend_user" });
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe("resolved");
      expect((await h.get("/api/v1/auth/me", as(author))).status).toBe(401);
      const { rows } = await h.db.sql.query<{ status: string }>("SELECT status FROM users WHERE id = $1", [
        author.user.id,
      ]);
      expect(rows[0]?.status).toBe("suspended");
      expect(await auditOf(author.user.id)).toEqual([
        expect.objectContaining({
          action: "user.status_changed",
          before: { status: "active" },
          after: { status: "suspended" },
        }),
      ]);
    });

    it("suspending a provider who authored the moment takes their listings out of every public read", async () => {
      const author = await h.provider({ displayName: "Moderated Seller" });
      const listingId = await h.listing(author.providerId);
      const reportId = await report(await publish(author), await h.signIn());
      const visible = async () => ({
        get: (await h.get(`/api/v1/listings/${listingId}`)).status,
        search: (await h.get<Envelope<unknown[]>>("/api/v1/listings?q=moderated%20seller")).body.meta?.total,
      });
      expect(await visible()).toEqual({ get: 200, search: 1 });
      expect((await moderate(reportId, { action: "suspend_user" })).status).toBe(200);
      expect(await visible()).toEqual({ get: 404, search: 0 });
    });

    it("dismisses the report for `none` and changes nothing else", async () => {
      const { momentId, reportId, reporter } = await reported();
      const res = await moderate(reportId, { action: "none" });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        status: "dismissed",
        moment_hidden: false,
        resolution_note: null,
      });
      expect(await feedIds(member)).toContain(momentId);
      expect(await auditOf(momentId)).toEqual([]);
      await h.runOutboxOnce();
      expect((await inbox(reporter)).map((n) => n.body)).toEqual([
        "We reviewed the moment you reported and took no action.",
      ]);
    });

    it("refuses a bad action (422), an unknown report (404), a non-admin (403), no token (401)", async () => {
      const { reportId } = await reported();
      const bad = await moderate(reportId, { action: "delete_moment" });
      expect(bad.status).toBe(422);
      expect(bad.body.error?.details?.map((d) => d.path)).toEqual(["action"]);
      expect((await moderate(reportId, {})).status).toBe(422);
      expect((await moderate(reportId, { action: "none", note: "x".repeat(2001) })).status).toBe(422);
      expect((await moderate("00000000-0000-4000-8000-000000000000", { action: "none" })).status).toBe(404);
      expect((await moderate("not-a-uuid", { action: "none" })).status).toBe(404);
      expect((await moderate(reportId, { action: "none" }, member)).status).toBe(403);
      expect((await moderate(reportId, { action: "none" }, accountant)).status).toBe(403);
      expect(
        (await h.post(`/api/v1/admin/community/reports/${reportId}/moderate`, { action: "none" })).status,
      ).toBe(401);
      const { rows } = await h.db.sql.query<{ status: string }>("SELECT status FROM reports WHERE id = $1", [
        reportId,
      ]);
      expect(rows[0]?.status).toBe("open");
    });

    it.skipIf(!onPostgres)(
      "decides a report once when two moderators answer together (PostgreSQL only: parallel connections)",
      async () => {
        const { reportId, reporter } = await reported();
        const other = await h.signIn({ role: "admin" });
        const answers = await Promise.all([
          moderate(reportId, { action: "hide_moment" }),
          moderate(reportId, { action: "none" }, other),
          moderate(reportId, { action: "suspend_user" }),
        ]);
        expect(answers.map((res) => res.status).sort()).toEqual([200, 422, 422]);
        expect((await auditOf(reportId)).map((e) => e.action)).toEqual(["report.moderated"]);
        await h.runOutboxOnce();
        expect((await inbox(reporter)).filter((n) => n.kind === "report.closed")).toHaveLength(1);
      },
    );
  });

  describe("decisions on a moment (every open report at once)", () => {
    /** A moment by a fresh author, reported by `count` fresh reporters, one report each. */
    const reportedBy = async (count: number) => {
      const author = await h.signIn();
      const momentId = await publish(author);
      const reporters: SignedIn[] = [];
      const reportIds: string[] = [];
      for (let i = 0; i < count; i += 1) {
        const reporter = await h.signIn();
        reporters.push(reporter);
        reportIds.push(await report(momentId, reporter, { reason: i % 2 === 0 ? "spam" : "abuse" }));
      }

      return { author, momentId, reporters, reportIds };
    };
    const statusesOf = async (momentId: string) =>
      (
        await h.db.sql.query<{ status: string; n: number }>(
          "SELECT status, count(*)::int AS n FROM reports WHERE target_id = $1 GROUP BY status",
          [momentId],
        )
      ).rows;
    const drainOutbox = async () => {
      for (let round = 0; round < 20; round += 1) {
        await h.runOutboxOnce();
        const { rows } = await h.db.sql.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM outbox_events WHERE processed_at IS NULL AND dead_at IS NULL",
        );
        if (rows[0]?.n === 0) {
          return;
        }
      }
      throw new Error("the outbox did not drain");
    };
    const noticesFor = async (momentId: string) =>
      (
        await h.db.sql.query<{ user_id: string; n: number }>(
          `SELECT user_id, count(*)::int AS n FROM notifications
            WHERE kind = 'report.closed' AND data->>'moment_id' = $1 GROUP BY user_id`,
          [momentId],
        )
      ).rows;

    it("50 reports on one moment: one hide_moment closes all 50, audited each, and exactly 50 outcome notices", async () => {
      const { momentId, reporters, reportIds } = await reportedBy(50);
      const queue = await h.get<Envelope<ModeratedReportDto[]>>(
        "/api/v1/admin/community/reports?group_by=moment&limit=100",
        as(admin),
      );
      expect(queue.status).toBe(200);
      const entry = queue.body.data.find((r) => r.moment_id === momentId);
      expect(entry).toMatchObject({ id: reportIds[0], moment_open_reports: 50, status: "open" });

      const res = await moderate(reportIds[17] as string, { action: "hide_moment", note: "Spam wave" });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: reportIds[17], status: "resolved", moment_hidden: true });
      expect(await statusesOf(momentId)).toEqual([{ status: "resolved", n: 50 }]);
      const { rows } = await h.db.sql.query<{ n: number; noted: number }>(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE resolution_note = 'Spam wave')::int AS noted
           FROM reports WHERE target_id = $1 AND reviewer_id = $2 AND resolved_at IS NOT NULL`,
        [momentId, admin.user.id],
      );
      expect(rows[0]).toEqual({ n: 50, noted: 50 });
      const audited = await h.db.sql.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM audit_events WHERE action = 'report.moderated' AND target_id = ANY($1::text[])",
        [reportIds],
      );
      expect(audited.rows[0]?.n).toBe(50);
      const grouped = await h.get<Envelope<ModeratedReportDto[]>>(
        "/api/v1/admin/community/reports?group_by=moment&limit=100",
        as(admin),
      );
      expect(grouped.body.data.map((r) => r.moment_id)).not.toContain(momentId);

      await drainOutbox();
      await drainOutbox();
      const notices = await noticesFor(momentId);
      expect(notices).toHaveLength(50);
      expect(notices.every((n) => n.n === 1)).toBe(true);
      expect(new Set(notices.map((n) => n.user_id))).toEqual(new Set(reporters.map((r) => r.user.id)));
      const told = await inbox(reporters[3] as SignedIn);
      expect(told.filter((n) => n.kind === "report.closed")).toEqual([
        expect.objectContaining({ body: "The moment you reported was hidden." }),
      ]);
    });

    it("suspend_user closes every open report too, one in review included; restore_moment and none decide one", async () => {
      const { momentId, reportIds } = await reportedBy(3);
      expect((await move(reportIds[1] as string, "reviewing")).status).toBe(200);
      expect((await moderate(reportIds[0] as string, { action: "none" })).status).toBe(200);
      expect(await statusesOf(momentId)).toEqual(
        expect.arrayContaining([
          { status: "dismissed", n: 1 },
          { status: "open", n: 1 },
          { status: "reviewing", n: 1 },
        ]),
      );
      expect((await moderate(reportIds[2] as string, { action: "suspend_user" })).status).toBe(200);
      expect(await statusesOf(momentId)).toEqual(
        expect.arrayContaining([
          { status: "dismissed", n: 1 },
          { status: "resolved", n: 2 },
        ]),
      );
      expect(await auditOf(reportIds[1] as string)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            action: "report.moderated",
            before: { status: "reviewing" },
            after: { status: "resolved", action: "suspend_user" },
          }),
        ]),
      );
      expect((await moderate(reportIds[1] as string, { action: "none" })).status).toBe(422);
    });

    it("groups the queue by moment with a count, oldest first, paged by moment; status narrows it", async () => {
      const older = await reportedBy(3);
      const newer = await reportedBy(2);
      expect((await move(newer.reportIds[0] as string, "reviewing")).status).toBe(200);
      const all = await h.get<Envelope<ModeratedReportDto[]>>(
        "/api/v1/admin/community/reports?group_by=moment&limit=100",
        as(admin),
      );
      const mine = all.body.data.filter((r) => [older.momentId, newer.momentId].includes(r.moment_id));
      expect(mine.map((r) => [r.moment_id, r.id, r.moment_open_reports])).toEqual([
        [older.momentId, older.reportIds[0], 3],
        [newer.momentId, newer.reportIds[0], 2],
      ]);
      const createdAt = all.body.data.map((r) => r.created_at);
      expect(createdAt).toEqual([...createdAt].sort());
      expect(all.body.meta?.total).toBe(new Set(all.body.data.map((r) => r.moment_id)).size);

      const reviewing = await h.get<Envelope<ModeratedReportDto[]>>(
        "/api/v1/admin/community/reports?group_by=moment&status=reviewing&limit=100",
        as(admin),
      );
      expect(reviewing.body.data.find((r) => r.moment_id === newer.momentId)).toMatchObject({
        id: newer.reportIds[0],
        moment_open_reports: 1,
      });
      const paged = await h.get<Envelope<ModeratedReportDto[]>>(
        "/api/v1/admin/community/reports?group_by=moment&limit=1&offset=1",
        as(admin),
      );
      expect(paged.body.data).toHaveLength(1);
      expect(paged.body.data[0]?.moment_id).toBe(all.body.data[1]?.moment_id);
      // Without group_by the entries are plain reports (no count).
      const plain = await h.get<Envelope<ModeratedReportDto[]>>("/api/v1/admin/community/reports", as(admin));
      expect(plain.body.data[0]).not.toHaveProperty("moment_open_reports");
      const bad = await h.get<Envelope<null>>("/api/v1/admin/community/reports?group_by=author", as(admin));
      expect(bad.status).toBe(422);
      expect(bad.body.error?.details?.[0]?.path).toBe("group_by");
    });

    it.skipIf(!onPostgres)(
      "two moderators deciding two reports of one moment at once: one decision, every report closed once (PostgreSQL only)",
      async () => {
        for (let round = 0; round < 3; round += 1) {
          const { momentId, reporters, reportIds } = await reportedBy(6);
          const other = await h.signIn({ role: "admin" });
          const answers = await Promise.all([
            moderate(reportIds[0] as string, { action: "hide_moment" }),
            moderate(reportIds[5] as string, { action: "suspend_user" }, other),
          ]);
          expect(answers.map((res) => res.status).sort()).toEqual([200, 422]);
          const loser = answers.find((res) => res.status === 422);
          expect(loser?.body.error?.code).toBe("invalid_transition");
          expect(await statusesOf(momentId)).toEqual([{ status: "resolved", n: 6 }]);
          const audited = await h.db.sql.query<{ n: number }>(
            `SELECT count(*)::int AS n
               FROM audit_events WHERE action = 'report.moderated' AND target_id = ANY($1::text[])`,
            [reportIds],
          );
          expect(audited.rows[0]?.n).toBe(6);
          await drainOutbox();
          const notices = await noticesFor(momentId);
          expect(notices.map((n) => n.n)).toEqual([1, 1, 1, 1, 1, 1]);
          expect(new Set(notices.map((n) => n.user_id))).toEqual(new Set(reporters.map((r) => r.user.id)));
        }
      },
    );
  });

  describe("POST /admin/community/reports/{id}/status", () => {
    it("follows the documented moves, audited; closing tells the reporter", async () => {
      const { reportId, reporter } = await reported();
      for (const [to, expected] of [
        ["resolved", 422],
        ["open", 422],
        ["reviewing", 200],
        ["reviewing", 422],
        ["open", 200],
        ["reviewing", 200],
        ["resolved", 200],
        ["open", 422],
        ["dismissed", 422],
      ] as const) {
        const res = await move(reportId, to);
        expect({ to, status: res.status }).toEqual({ to, status: expected });
        if (expected === 422) {
          expect(res.body.error?.code).toBe("invalid_transition");
        } else {
          expect(res.body.data.status).toBe(to);
        }
      }
      expect((await auditOf(reportId)).map((e) => [e.before, e.after])).toEqual([
        [{ status: "reviewing" }, { status: "resolved" }],
        [{ status: "open" }, { status: "reviewing" }],
        [{ status: "reviewing" }, { status: "open" }],
        [{ status: "open" }, { status: "reviewing" }],
      ]);
      await h.runOutboxOnce();
      expect((await inbox(reporter)).map((n) => n.data.status)).toEqual(["resolved"]);

      const second = await reported();
      expect((await move(second.reportId, "dismissed")).status).toBe(200);
    });

    it("refuses an unknown status (422 validation_failed), report (404) or caller (403, 401)", async () => {
      const { reportId } = await reported();
      const bad = await move(reportId, "closed");
      expect(bad.status).toBe(422);
      expect(bad.body.error?.code).toBe("validation_failed");
      expect((await move("00000000-0000-4000-8000-000000000000", "reviewing")).status).toBe(404);
      expect((await move(reportId, "reviewing", member)).status).toBe(403);
      expect(
        (await h.post(`/api/v1/admin/community/reports/${reportId}/status`, { status: "reviewing" })).status,
      ).toBe(401);
    });
  });

  describe("GET /admin/overview", () => {
    const overview = async () => {
      const res = await h.get<Envelope<Overview>>("/api/v1/admin/overview", as(admin));
      expect(res.status).toBe(200);

      return res.body.data;
    };

    it("counts marketplace and moderation totals as they change", async () => {
      const before = await overview();
      const suspended = await h.signIn({ status: "suspended" });
      await h.provider();
      const { reportId } = await reported();
      const after = await overview();
      expect(after.marketplace.users_by_status.suspended).toBe(
        (before.marketplace.users_by_status.suspended ?? 0) + 1,
      );
      // the provider, the author and the reporter are active members
      expect(after.marketplace.users_by_status.active).toBe(
        (before.marketplace.users_by_status.active ?? 0) + 3,
      );
      expect(after.marketplace.providers.approved).toBe(before.marketplace.providers.approved + 1);
      expect(after.moderation.open_reports).toBe(before.moderation.open_reports + 1);

      await moderate(reportId, { action: "hide_moment" });
      const decided = await overview();
      expect(decided.moderation).toEqual({
        open_reports: before.moderation.open_reports,
        reports_over_24h: before.moderation.reports_over_24h,
        hidden_moments: before.moderation.hidden_moments + 1,
      });
      expect(suspended.user.id).toEqual(expect.any(String));
    });

    it("counts the undecided reports filed more than 24 hours ago, of every target", async () => {
      const before = await overview();
      const reporter = await h.signIn();
      const file = async (hoursAgo: number, status: string) =>
        h.db.sql.query(
          `INSERT INTO reports (id, target_type, target_id, reporter_id, category, reason, status, created_at, updated_at)
           VALUES ($1, 'user', $2, $3, 'harassment', 'abuse', $4, $5, $5)`,
          [
            h.runtime.ids.next(),
            (await h.createUser()).id,
            reporter.user.id,
            status,
            new Date(h.clock.now().getTime() - hoursAgo * 3_600_000),
          ],
        );
      await file(25, "open");
      await file(30, "reviewing");
      await file(23, "open");
      await file(48, "dismissed");
      const after = await overview();
      expect(after.moderation.reports_over_24h).toBe(before.moderation.reports_over_24h + 2);
      expect(after.moderation.open_reports).toBe(before.moderation.open_reports + 3);
    });

    it("counts pending orders and submitted payments as awaiting action", async () => {
      const before = await overview();
      const { itemId } = await h.orderable();
      const customer = await h.signIn();
      const placed = await h.post<Envelope<{ id: string }>>(
        "/api/v1/orders",
        { menu_item_id: itemId, quantity: 1 },
        as(customer),
      );
      expect(placed.status).toBe(201);
      const after = await overview();
      expect(after.marketplace.orders_awaiting_action).toBe(before.marketplace.orders_awaiting_action + 1);
      expect(after.marketplace.payments_awaiting_review).toBe(before.marketplace.payments_awaiting_review);
    });

    it("answers administrators only", async () => {
      expect((await h.get("/api/v1/admin/overview", as(member))).status).toBe(403);
      expect((await h.get("/api/v1/admin/overview", as(accountant))).status).toBe(403);
      expect((await h.get("/api/v1/admin/overview")).status).toBe(401);
    });
  });

  describe("GET /admin/exports/reports.csv", () => {
    it("streams every report with a header row, dated file name and neutralised formulas", async () => {
      const author = await h.signIn();
      const momentId = await publish(author, "=cmd|' /C calc'!A0");
      const filedAt = h.clock.now().toISOString();
      const sneaky = await report(momentId, member, {
        reason: "other",
        note: '=HYPERLINK("http://evil","x")',
      });
      const plain = await report(momentId, await h.signIn(), { reason: "spam", note: "line one\nline, two" });
      await moderate(sneaky, { action: "hide_moment", note: "+1 agreed" });

      const res = await h.get("/api/v1/admin/exports/reports.csv", as(admin));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(res.headers.get("content-disposition")).toBe(
        `attachment; filename="agora-reports-${h.clock.now().toISOString().slice(0, 10)}.csv"`,
      );
      const lines = res.text.split("\n");
      expect(lines[0]).toBe(
        "report_id,created_at,status,reason,note,moment_id,moment_author_id,moment_hidden,reporter_id," +
          "reviewer_id,resolution_note,reviewed_at,resolved_at,target_type,target_id,target_owner_id,category," +
          "source,decision",
      );
      const sneakyLine = lines.find((line) => line.startsWith(sneaky));
      const now = h.clock.now().toISOString();
      expect(sneakyLine).toBe(
        [
          sneaky,
          filedAt,
          "resolved",
          "other",
          `"'=HYPERLINK(""http://evil"",""x"")"`,
          momentId,
          author.user.id,
          "true",
          member.user.id,
          admin.user.id,
          "'+1 agreed",
          now,
          now,
          "moment",
          momentId,
          author.user.id,
          "other",
          "member",
          "hide_moment",
        ].join(","),
      );
      expect(res.text).toContain(`${plain},`);
      expect(res.text).toContain('"line one\nline, two"');
      const { rows } = await h.db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM reports");
      // one line per report (one of them spans two), the header, and the final line break
      expect(lines).toHaveLength((rows[0]?.n ?? 0) + 1 + 1 + 1);
    });

    it("reads past its batches: 2,500 reports, each once, oldest first", async () => {
      const author = await h.signIn();
      const reporter = await h.signIn();
      const momentId = await publish(author);
      await h.db.sql.query(
        `INSERT INTO reports (id, target_type, target_id, reporter_id, category, reason, status, created_at, updated_at)
         SELECT gen_random_uuid(), 'moment', $1, $2, 'spam', 'spam', 'dismissed', $3::timestamptz + n * interval '1 ms', $3
           FROM generate_series(1, 2500) AS n`,
        [momentId, reporter.user.id, h.clock.now()],
      );
      const res = await h.get("/api/v1/admin/exports/reports.csv", as(admin));
      const ids = res.text
        .trimEnd()
        .split("\n")
        .slice(1)
        .filter((line) => line.includes(`,${momentId},`))
        .map((line) => line.slice(0, 36));
      expect(ids).toHaveLength(2500);
      expect(new Set(ids).size).toBe(2500);
      const { rows } = await h.db.sql.query<{ id: string }>(
        "SELECT id FROM reports WHERE target_id = $1 ORDER BY created_at, id",
        [momentId],
      );
      expect(ids).toEqual(rows.map((row) => row.id));
    });

    it("answers administrators only, before any byte", async () => {
      const res = await h.get<Envelope<null>>("/api/v1/admin/exports/reports.csv", as(accountant));
      expect(res.status).toBe(403);
      expect(res.body.error?.code).toBe("forbidden");
      expect((await h.get("/api/v1/admin/exports/reports.csv", as(member))).status).toBe(403);
      expect((await h.get("/api/v1/admin/exports/reports.csv")).status).toBe(401);
    });
  });
});
