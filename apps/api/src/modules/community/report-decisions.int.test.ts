// The decisions on a reported target, action by action, through the HTTP app (docs/safety.md,
// "Reports"): what each does to the target, that the report stays readable with its snapshot and
// the earlier texts, and that approving releases what a filter held.

import type { ReportDto } from "@agora/contracts/reports";
import type { DecisionDto, ReportTargetViewDto } from "@agora/contracts/reports.admin";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";

type Envelope<T> = { data: T; error: { code: string } | null };

describe("decisions on a reported target", () => {
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
  const report = async (who: SignedIn, targetType: string, targetId: string) => {
    const res = await h.post<Envelope<ReportDto>>(
      "/api/v1/reports",
      { target_type: targetType, target_id: targetId, category: "spam" },
      as(who),
    );
    expect(res.status).toBe(201);

    return res.body.data;
  };
  const decide = (type: string, id: string, action: string) =>
    h.post<Envelope<DecisionDto>>(
      `/api/v1/admin/reports/targets/${type}/${id}/decision`,
      { action },
      as(admin),
    );
  const view = async (type: string, id: string) => {
    const res = await h.get<Envelope<ReportTargetViewDto>>(
      `/api/v1/admin/reports/targets/${type}/${id}`,
      as(admin),
    );
    expect(res.status).toBe(200);

    return res.body.data;
  };
  const publish = async (who: SignedIn, body: string) => {
    const res = await h.post<Envelope<{ id: string }>>("/api/v1/community/moments", { body }, as(who));
    expect(res.status).toBe(201);

    return res.body.data.id;
  };

  it("delete on a moment: gone for everyone at once, its report still readable with its snapshot and earlier texts", async () => {
    const author = await h.signIn();
    const reader = await h.signIn();
    const id = await publish(author, "first words");
    expect(
      (await h.patch(`/api/v1/community/moments/${id}`, { body: "second words" }, as(author))).status,
    ).toBe(200);
    const filed = await report(reader, "moment", id);
    const before = await view("moment", id);
    expect(before.edits.map((edit) => edit.body)).toEqual(["first words"]);
    expect(before.deleted).toBe(false);

    const decided = await decide("moment", id, "delete");
    expect(decided.status).toBe(200);
    expect((await h.get(`/api/v1/community/moments/${id}/counters`, as(reader))).status).toBe(404);
    expect((await h.get(`/api/v1/community/moments/${id}/counters`, as(author))).status).toBe(404);
    const after = await view("moment", id);
    expect(after.deleted).toBe(true);
    expect(after.current).toBeNull();
    expect(after.reports).toEqual([
      expect.objectContaining({ id: filed.id, status: "resolved", decision: "delete" }),
    ]);
    expect(after.reports[0]?.snapshot).toMatchObject({ body: "second words" });
    // A second decision finds nothing open; a target never reported is not found.
    expect((await decide("moment", id, "delete")).body.error?.code).toBe("invalid_transition");
    const never = await decide("moment", await publish(author, "never reported"), "hide");
    expect([never.status, never.body.error?.code]).toEqual([404, "not_found"]);
  });

  it("delete on a comment lowers the moment's comment counter; hide is not a comment's action", async () => {
    const author = await h.signIn();
    const commenter = await h.signIn();
    const momentId = await publish(author, "a moment");
    const comment = await h.post<Envelope<{ id: string }>>(
      `/api/v1/community/moments/${momentId}/comments`,
      { body: "buy followers at example.test" },
      as(commenter),
    );
    await report(author, "comment", comment.body.data.id);
    expect((await decide("comment", comment.body.data.id, "hide")).status).toBe(422);
    expect((await decide("comment", comment.body.data.id, "delete")).status).toBe(200);
    const counters = await h.get<Envelope<{ comments: number }>>(
      `/api/v1/community/moments/${momentId}/counters`,
      as(author),
    );
    expect(counters.body.data.comments).toBe(0);
    const list = await h.get<Envelope<unknown[]>>(
      `/api/v1/community/moments/${momentId}/comments`,
      as(author),
    );
    expect(list.body.data).toEqual([]);
  });

  it("hide on a listing suspends it out of public reads; hide on a dating profile makes it invisible", async () => {
    const seller = await h.provider();
    const listingId = await h.listing(seller.providerId, { name: "Too good to be true" });
    const reader = await h.signIn();
    await report(reader, "listing", listingId);
    expect((await decide("listing", listingId, "hide")).status).toBe(200);
    expect((await h.get(`/api/v1/listings/${listingId}`)).status).toBe(404);
    const { rows } = await h.db.sql.query<{ status: string }>("SELECT status FROM listings WHERE id = $1", [
      listingId,
    ]);
    expect(rows[0]?.status).toBe("suspended");

    const dater = await h.signIn();
    expect(
      (await h.put("/api/v1/dating/profile", { visible: true, bio: "hi", interests: ["chess"] }, as(dater)))
        .status,
    ).toBe(200);
    await report(reader, "dating_profile", dater.user.id);
    expect((await decide("dating_profile", dater.user.id, "hide")).status).toBe(200);
    const browse = await h.get<Envelope<{ user_id: string }[]>>("/api/v1/dating/browse", as(reader));
    expect(browse.status).toBe(200);
    expect(browse.body.data.map((profile) => profile.user_id)).not.toContain(dater.user.id);
  });

  it("delete on a meeting ends it; delete on a dating profile removes it", async () => {
    const host = await h.signIn();
    const guest = await h.signIn();
    const meeting = await h.post<Envelope<{ id: string }>>(
      "/api/v1/meetings",
      { title: "Crypto riches", starts_at: new Date(h.clock.now().getTime() + 3_600_000).toISOString() },
      as(host),
    );
    expect(meeting.status).toBe(201);
    await report(guest, "meeting", meeting.body.data.id);
    expect((await decide("meeting", meeting.body.data.id, "delete")).status).toBe(200);
    const { rows } = await h.db.sql.query<{ status: string }>("SELECT status FROM meetings WHERE id = $1", [
      meeting.body.data.id,
    ]);
    expect(rows[0]?.status).toBe("ended");

    const dater = await h.signIn();
    expect((await h.put("/api/v1/dating/profile", { visible: true, bio: "hello" }, as(dater))).status).toBe(
      200,
    );
    await report(guest, "dating_profile", dater.user.id);
    expect((await decide("dating_profile", dater.user.id, "delete")).status).toBe(200);
    const { rows: profiles } = await h.db.sql.query("SELECT 1 FROM dating_profiles WHERE user_id = $1", [
      dater.user.id,
    ]);
    expect(profiles).toEqual([]);
  });

  it("approve releases a held moment to everyone; dismiss releases too", async () => {
    const author = await h.signIn();
    const reader = await h.signIn();
    const held = async () => {
      const id = await publish(author, "held for a moderator");
      await h.db.sql.query("UPDATE moments SET held_at = $2 WHERE id = $1", [id, h.clock.now()]);
      // A moderator finds it by a report (a filter's report in production: here a member's).
      await h.db.sql.query(
        `INSERT INTO reports (id, target_type, target_id, target_owner_id, source, category, reason, status,
                              created_at, updated_at)
         VALUES ($1, 'moment', $2, $3, 'filter', 'other', 'other', 'open', $4, $4)`,
        [h.runtime.ids.next(), id, author.user.id, h.clock.now()],
      );

      return id;
    };
    const approved = await held();
    expect((await h.get(`/api/v1/community/moments/${approved}/counters`, as(reader))).status).toBe(404);
    expect((await decide("moment", approved, "approve")).status).toBe(200);
    expect((await h.get(`/api/v1/community/moments/${approved}/counters`, as(reader))).status).toBe(200);

    const dismissed = await held();
    expect((await decide("moment", dismissed, "dismiss")).status).toBe(200);
    expect((await h.get(`/api/v1/community/moments/${dismissed}/counters`, as(reader))).status).toBe(200);
    const audit = await h.db.sql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_events WHERE action = 'moment.released' AND target_id = ANY($1::text[])",
      [[approved, dismissed]],
    );
    expect(audit.rows[0]?.n).toBe(2);
  });
});
