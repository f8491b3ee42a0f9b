import type { ReportDto } from "@agora/contracts/reports";
import type { DecisionDto, ReportedTargetDto, ReportTargetViewDto } from "@agora/contracts/reports.admin";
import { onPostgres } from "@agora/db/test/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";

type Envelope<T> = {
  data: T;
  meta: { total: number } | null;
  error: { code: string; details?: { path: string }[] } | null;
};
type Notification = { kind: string; body: string; data: Record<string, unknown> };

describe("reports of anything", () => {
  let h: Harness;
  let admin: SignedIn;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.signIn({ role: "admin" });
  });
  afterAll(async () => {
    await h?.close();
  });

  const as = (s: SignedIn) => ({ token: s.accessToken });
  const publish = async (who: SignedIn) => {
    const res = await h.post<Envelope<{ id: string }>>(
      "/api/v1/community/moments",
      { body: "hello" },
      as(who),
    );
    expect(res.status).toBe(201);

    return res.body.data.id;
  };
  const report = (who: SignedIn, target_type: string, target_id: string, category = "spam") =>
    h.post<Envelope<ReportDto>>("/api/v1/reports", { target_type, target_id, category }, as(who));
  const decide = (type: string, id: string, action: string) =>
    h.post<Envelope<DecisionDto>>(
      `/api/v1/admin/reports/targets/${type}/${id}/decision`,
      { action },
      as(admin),
    );
  const inbox = async (who: SignedIn) => {
    await h.runOutboxOnce();
    return (await h.get<Envelope<Notification[]>>("/api/v1/notifications", as(who))).body.data;
  };
  const conversation = async (a: SignedIn, b: SignedIn, messages: number) => {
    const conv = await h.post<Envelope<{ id: string }>>(
      "/api/v1/chat/conversations",
      { other_user_id: b.user.id },
      as(a),
    );
    expect([200, 201]).toContain(conv.status);
    const ids: string[] = [];
    for (let i = 0; i < messages; i += 1) {
      const sent = await h.post<Envelope<{ id: string }>>(
        `/api/v1/chat/conversations/${conv.body.data.id}/messages`,
        { body: `message ${i}` },
        as(i % 2 === 0 ? a : b),
      );
      expect(sent.status).toBe(201);
      ids.push(sent.body.data.id);
    }

    return ids;
  };

  it("a chat message, a comment, a user and a listing can each be reported; a second report answers the first", async () => {
    const a = await h.signIn();
    const b = await h.signIn();
    const outsider = await h.signIn();
    const [messageId] = await conversation(a, b, 1);
    const first = await report(b, "message", messageId as string, "harassment");
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      target_type: "message",
      category: "harassment",
      reason: "abuse",
    });
    const again = await report(b, "message", messageId as string, "spam");
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    // Not in the conversation: 404; the sender themselves: 422.
    expect((await report(outsider, "message", messageId as string)).status).toBe(404);
    const own = await report(a, "message", messageId as string);
    expect(own.status).toBe(422);
    expect(own.body.error?.details?.[0]?.path).toBe("target_id");

    const momentId = await publish(a);
    const comment = await h.post<Envelope<{ id: string }>>(
      `/api/v1/community/moments/${momentId}/comments`,
      { body: "rude" },
      as(a),
    );
    expect((await report(b, "comment", comment.body.data.id, "hate")).status).toBe(201);
    expect((await report(b, "user", a.user.id, "impersonation")).status).toBe(201);
    expect((await report(b, "user", b.user.id)).status).toBe(422);
    const seller = await h.provider();
    const listingId = await h.listing(seller.providerId, { name: "Fake watches" });
    expect((await report(b, "listing", listingId, "scam")).status).toBe(201);
    const draft = await h.listing(seller.providerId, { status: "draft" });
    expect((await report(b, "listing", draft)).status).toBe(404);
    expect((await report(b, "comment", "0193e0a4-7b1c-7d2e-9f3a-1b2c3d4e5f60")).status).toBe(404);

    // The snapshot keeps what was reported.
    const view = await h.get<Envelope<ReportTargetViewDto>>(
      `/api/v1/admin/reports/targets/listing/${listingId}`,
      as(admin),
    );
    expect(view.status).toBe(200);
    expect(view.body.data.reports[0]?.snapshot).toMatchObject({ name: "Fake watches" });

    // The queue by target: each target once, as it is now, whatever its type.
    const queue = await h.get<Envelope<ReportedTargetDto[]>>(
      "/api/v1/admin/reports?group_by=target&limit=100",
      as(admin),
    );
    expect(queue.status).toBe(200);
    const entry = (type: string, id: string) =>
      queue.body.data.find((group) => group.target_type === type && group.target_id === id);
    expect(entry("listing", listingId)?.current).toMatchObject({ name: "Fake watches" });
    expect(entry("user", a.user.id)?.current).toMatchObject({ status: "active", owner_id: a.user.id });
    expect(entry("message", messageId as string)?.categories).toEqual({ harassment: 1 });
    expect(entry("comment", comment.body.data.id)?.current).toMatchObject({ owner_id: a.user.id });
  });

  it("a reported message shows the moderator it and at most 5 on each side; both participants' reports close with one decision", async () => {
    const a = await h.signIn();
    const b = await h.signIn();
    const ids = await conversation(a, b, 20);
    const target = ids[10] as string; // sent by a (even index)
    // Only the other participant can report a message (chat is one-to-one): b reports a's message,
    // and a reports b's message next to it; the decision on one message closes its reports.
    expect((await report(b, "message", target)).status).toBe(201);
    const view = await h.get<Envelope<ReportTargetViewDto>>(
      `/api/v1/admin/reports/targets/message/${target}`,
      as(admin),
    );
    expect(view.body.data.messages?.map((m) => m.id)).toEqual(ids.slice(5, 16));
    const decided = await decide("message", target, "delete");
    expect(decided.status).toBe(200);
    expect(decided.body.data.closed).toHaveLength(1);
    const after = await h.get<Envelope<ReportTargetViewDto>>(
      `/api/v1/admin/reports/targets/message/${target}`,
      as(admin),
    );
    expect(after.body.data.current).toMatchObject({ body: "[removed by a moderator]" });
    expect(after.body.data.reports[0]?.snapshot).toMatchObject({ body: "message 10" });
    expect((await inbox(b)).filter((n) => n.kind === "report.closed")).toHaveLength(1);
    // A message-kind action it does not take: 422 on action.
    const hide = await decide("message", ids[11] as string, "hide");
    expect(hide.status).toBe(422);
    expect(hide.body.error?.details?.[0]?.path).toBe("action");
    // Nothing open any more: 422 invalid_transition.
    expect((await decide("message", target, "dismiss")).body.error?.code).toBe("invalid_transition");
  });

  it("50 reports on one moment by 50 reporters: grouped with counts per category, one decision closes all with exactly 50 notices", async () => {
    const author = await h.signIn();
    const momentId = await publish(author);
    const reporters: SignedIn[] = [];
    for (let i = 0; i < 50; i += 1) {
      const reporter = await h.signIn();
      reporters.push(reporter);
      expect((await report(reporter, "moment", momentId, i % 2 === 0 ? "spam" : "hate")).status).toBe(201);
    }
    const groups = await h.get<Envelope<ReportedTargetDto[]>>(
      "/api/v1/admin/reports?group_by=target&target_type=moment&limit=100",
      as(admin),
    );
    const group = groups.body.data.find((g) => g.target_id === momentId);
    expect(group).toMatchObject({ open_reports: 50, categories: { spam: 25, hate: 25 }, deleted: false });
    const decided = await decide("moment", momentId, "hide");
    expect(decided.status).toBe(200);
    expect(decided.body.data.closed).toHaveLength(50);
    expect(decided.body.data.closed.every((r) => r.status === "resolved" && r.decision === "hide")).toBe(
      true,
    );
    await h.runOutboxOnce();
    let notices = 0;
    for (const reporter of reporters) {
      notices += (await inbox(reporter)).filter((n) => n.kind === "report.closed").length;
    }
    expect(notices).toBe(50);
    // The SPEC queue sees the moment's reports, closed.
    const legacy = await h.get<Envelope<{ moment_id: string; status: string; moment_hidden: boolean }[]>>(
      "/api/v1/admin/community/reports?status=resolved&limit=100",
      as(admin),
    );
    expect(legacy.body.data.filter((r) => r.moment_id === momentId && r.moment_hidden)).toHaveLength(50);
  });

  it("warn tells the owner once; suspend suspends the reported user", async () => {
    const owner = await h.signIn();
    const reporter = await h.signIn();
    expect((await report(reporter, "user", owner.user.id, "harassment")).status).toBe(201);
    expect((await decide("user", owner.user.id, "warn")).status).toBe(200);
    const warned = (await inbox(owner)).filter((n) => n.kind === "moderation.author_warned");
    expect(warned).toHaveLength(1);
    expect(warned[0]?.data).toEqual({ target_type: "user", categories: ["harassment"] });
    expect((await report(reporter, "user", owner.user.id, "harassment")).status).toBe(201);
    expect((await decide("user", owner.user.id, "suspend")).status).toBe(200);
    expect((await h.get("/api/v1/auth/me", as(owner))).status).toBe(401);
  });

  it("a row the previous release writes into moment_reports appears in reports, and its status update follows", async () => {
    const author = await h.signIn();
    const reporter = await h.signIn();
    const momentId = await publish(author);
    const id = h.runtime.ids.next();
    const now = h.clock.now();
    await h.db.sql.query(
      `INSERT INTO moment_reports (id, moment_id, reporter_id, reason, note, status, created_at, updated_at)
       VALUES ($1, $2, $3, 'abuse', NULL, 'open', $4, $4)`,
      [id, momentId, reporter.user.id, now],
    );
    const copied = await h.db.sql.query<{ category: string; status: string; target_owner_id: string }>(
      "SELECT category, status, target_owner_id FROM reports WHERE id = $1",
      [id],
    );
    expect(copied.rows[0]).toEqual({
      category: "harassment",
      status: "open",
      target_owner_id: author.user.id,
    });
    await h.db.sql.query("UPDATE moment_reports SET status = 'reviewing', updated_at = $2 WHERE id = $1", [
      id,
      now,
    ]);
    const moved = await h.db.sql.query<{ status: string }>("SELECT status FROM reports WHERE id = $1", [id]);
    expect(moved.rows[0]?.status).toBe("reviewing");
  });

  it.skipIf(!onPostgres)("two parallel identical reports file one row (PostgreSQL)", async () => {
    const author = await h.signIn();
    const reporter = await h.signIn();
    const momentId = await publish(author);
    const answers = await Promise.all([
      report(reporter, "moment", momentId),
      report(reporter, "moment", momentId),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 201]);
    const rows = await h.db.sql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM reports WHERE target_id = $1 AND reporter_id = $2",
      [momentId, reporter.user.id],
    );
    expect(rows.rows[0]?.n).toBe(1);
  });

  it.skipIf(!onPostgres)(
    "two parallel decisions on one target: one wins, the other finds nothing open; notices once each (PostgreSQL)",
    async () => {
      const author = await h.signIn();
      const momentId = await publish(author);
      const reporters = [await h.signIn(), await h.signIn(), await h.signIn()];
      for (const reporter of reporters) {
        expect((await report(reporter, "moment", momentId)).status).toBe(201);
      }
      const answers = await Promise.all([
        decide("moment", momentId, "hide"),
        decide("moment", momentId, "dismiss"),
      ]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 422]);
      expect(answers.find((r) => r.status === 422)?.body.error?.code).toBe("invalid_transition");
      for (const reporter of reporters) {
        expect((await inbox(reporter)).filter((n) => n.kind === "report.closed")).toHaveLength(1);
      }
    },
  );
});
