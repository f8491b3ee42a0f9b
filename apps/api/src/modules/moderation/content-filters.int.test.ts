import type { ContentFilterDto } from "@agora/contracts/moderation.admin";
import { onPostgres } from "@agora/db/test/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";

type Meta = { limit: number; offset: number; total: number };
type Envelope<T> = {
  data: T;
  meta: Meta | null;
  error: { code: string; message: string; details?: { path: string; message: string }[] } | null;
};
type Rule = { match: string; value: string; action: string; contexts: string[] };
type ReportRow = {
  target_type: string;
  target_id: string;
  target_owner_id: string | null;
  reporter_id: string | null;
  source: string;
  filter_rule_id: string | null;
  category: string;
  reason: string;
  note: string | null;
  snapshot: Record<string, unknown> | null;
  status: string;
};

describe("content filters", () => {
  let h: Harness;
  let admin: SignedIn;
  let member: SignedIn;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.signIn({ role: "admin" });
    member = await h.signIn();
  });
  afterAll(async () => {
    await h?.close();
  });

  const as = (s: SignedIn) => ({ token: s.accessToken });
  let tag = 0;
  /** A value no other test uses (rules are global to the database). */
  const word = (base: string) => {
    tag += 1;

    return `${base}${"abcdefghij"[tag % 10]}${"klmnopqrst"[Math.floor(tag / 10) % 10]}`;
  };
  const addRule = async (rule: Rule) => {
    const res = await h.post<Envelope<ContentFilterDto>>("/api/v1/admin/filters", rule, as(admin));
    expect(res.status, JSON.stringify(res.body)).toBe(201);

    return res.body.data;
  };
  const ruleOf = async (id: string) => {
    const all = await h.get<Envelope<ContentFilterDto[]>>("/api/v1/admin/filters?limit=100", as(admin));
    const found = all.body.data.find((rule) => rule.id === id);
    if (!found) {
      throw new Error(`rule ${id} not listed`);
    }

    return found;
  };
  const reportsOf = async (targetId: string) =>
    (
      await h.db.sql.query<ReportRow>(
        `SELECT target_type, target_id, target_owner_id, reporter_id, source, filter_rule_id, category, reason,
                note, snapshot, status
           FROM reports WHERE target_id = $1 ORDER BY created_at`,
        [targetId],
      )
    ).rows;
  const auditOf = async (targetId: string) =>
    (
      await h.get<Envelope<{ action: string; before: unknown; after: unknown }[]>>(
        `/api/v1/admin/audit?target_id=${targetId}`,
        as(admin),
      )
    ).body.data;
  const postMoment = (who: SignedIn, body: string) =>
    h.post<Envelope<{ id: string }>>("/api/v1/community/moments", { body }, as(who));
  const feedIds = async (who: SignedIn) =>
    (await h.get<Envelope<{ id: string }[]>>("/api/v1/community/feed", as(who))).body.data.map((m) => m.id);

  describe("the admin routes", () => {
    it("creates, lists, changes and deletes a rule, each change audited", async () => {
      const value = word("Fraud");
      const created = await addRule({ match: "word", value, action: "block", contexts: ["moments"] });
      expect(created).toMatchObject({
        match: "word",
        value,
        normalized_value: value.toLowerCase(),
        action: "block",
        contexts: ["moments"],
        hits: 0,
        last_hit_at: null,
        created_by: admin.user.id,
      });
      expect(await ruleOf(created.id)).toEqual(created);

      h.clock.advance(1000);
      const patched = await h.patch<Envelope<ContentFilterDto>>(
        `/api/v1/admin/filters/${created.id}`,
        { action: "flag", contexts: ["moments", "comments"] },
        as(admin),
      );
      expect(patched.status).toBe(200);
      expect(patched.body.data).toMatchObject({
        value,
        action: "flag",
        contexts: ["moments", "comments"],
      });
      expect(patched.body.data.updated_at > created.updated_at).toBe(true);

      const deleted = await h.delete<Envelope<{ id: string; deleted: boolean }>>(
        `/api/v1/admin/filters/${created.id}`,
        as(admin),
      );
      expect(deleted.status).toBe(200);
      expect(deleted.body.data).toEqual({ id: created.id, deleted: true });
      expect((await h.delete(`/api/v1/admin/filters/${created.id}`, as(admin))).status).toBe(404);
      expect(
        (await h.patch(`/api/v1/admin/filters/${created.id}`, { action: "hold" }, as(admin))).status,
      ).toBe(404);

      const audit = await auditOf(created.id);
      expect(audit.map((entry) => entry.action).sort()).toEqual([
        "content_filter.created",
        "content_filter.deleted",
        "content_filter.updated",
      ]);
      const update = audit.find((entry) => entry.action === "content_filter.updated");
      expect(update?.before).toMatchObject({ action: "block", contexts: ["moments"] });
      expect(update?.after).toMatchObject({ action: "flag", contexts: ["moments", "comments"] });
    });

    it("answers a retried create with its first answer under the same Idempotency-Key, one rule", async () => {
      const rule = { match: "word", value: word("retried"), action: "flag", contexts: ["moments"] };
      const init = { ...as(admin), headers: { "idempotency-key": `filter-${rule.value}` } };
      const first = await h.post<Envelope<ContentFilterDto>>("/api/v1/admin/filters", rule, init);
      const second = await h.post<Envelope<ContentFilterDto>>("/api/v1/admin/filters", rule, init);
      expect(first.status).toBe(201);
      expect(second.status).toBe(201);
      expect(second.headers.get("idempotent-replayed")).toBe("true");
      expect(second.body.data.id).toBe(first.body.data.id);
      const { rows } = await h.db.sql.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM content_filters WHERE value = $1",
        [rule.value],
      );
      expect(rows[0]?.n).toBe(1);
    });

    it("pages the list", async () => {
      await addRule({ match: "word", value: word("pageone"), action: "flag", contexts: ["messages"] });
      await addRule({ match: "word", value: word("pagetwo"), action: "flag", contexts: ["messages"] });
      const page = await h.get<Envelope<ContentFilterDto[]>>(
        "/api/v1/admin/filters?limit=1&offset=1",
        as(admin),
      );
      expect(page.status).toBe(200);
      expect(page.body.data).toHaveLength(1);
      expect(page.body.meta).toMatchObject({ limit: 1, offset: 1 });
      expect(page.body.meta?.total).toBeGreaterThanOrEqual(2);
    });

    it("refuses a duplicate after normalization with 409 conflict", async () => {
      const value = word("dupe");
      await addRule({ match: "word", value, action: "block", contexts: ["moments"] });
      const again = await h.post<Envelope<null>>(
        "/api/v1/admin/filters",
        {
          match: "word",
          value: ` ${value.toUpperCase().replace("E", "É")} `,
          action: "flag",
          contexts: ["comments"],
        },
        as(admin),
      );
      expect(again.status).toBe(409);
      expect(again.body.error?.code).toBe("conflict");
      // The same value under another match type is another rule.
      const domainLike = await h.post(
        "/api/v1/admin/filters",
        {
          match: "phrase",
          value: `${value} again`,
          action: "flag",
          contexts: ["comments"],
        },
        as(admin),
      );
      expect(domainLike.status).toBe(201);
    });

    it("validates the value against its match, and the contexts", async () => {
      const cases: [Rule, string][] = [
        [{ match: "word", value: "two words", action: "block", contexts: ["moments"] }, "value"],
        [{ match: "word", value: "!!!", action: "block", contexts: ["moments"] }, "value"],
        [{ match: "phrase", value: "alone", action: "block", contexts: ["moments"] }, "value"],
        [{ match: "phrase", value: "a b c d e f g h i", action: "block", contexts: ["moments"] }, "value"],
        [{ match: "domain", value: "not a host", action: "block", contexts: ["moments"] }, "value"],
        [{ match: "word", value: "x".repeat(101), action: "block", contexts: ["moments"] }, "value"],
        [{ match: "word", value: "", action: "block", contexts: ["moments"] }, "value"],
        [{ match: "word", value: "fine", action: "block", contexts: [] }, "contexts"],
        [{ match: "word", value: "fine", action: "block", contexts: ["moments", "moments"] }, "contexts"],
        [{ match: "word", value: "fine", action: "block", contexts: ["nowhere"] }, "contexts.0"],
        [{ match: "regex", value: "fine", action: "block", contexts: ["moments"] }, "match"],
        [{ match: "word", value: "fine", action: "delete", contexts: ["moments"] }, "action"],
      ];
      for (const [body, path] of cases) {
        const res = await h.post<Envelope<null>>("/api/v1/admin/filters", body, as(admin));
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body.error?.code).toBe("validation_failed");
        expect(res.body.error?.details?.map((d) => d.path)).toContain(path);
      }
      const rule = await addRule({
        match: "word",
        value: word("patchcheck"),
        action: "flag",
        contexts: ["moments"],
      });
      // A PATCH of the match alone is checked against the kept value.
      const res = await h.patch<Envelope<null>>(
        `/api/v1/admin/filters/${rule.id}`,
        { match: "phrase" },
        as(admin),
      );
      expect(res.status).toBe(422);
      expect(res.body.error?.details?.[0]?.path).toBe("value");
    });

    it("is for administrators only", async () => {
      const rule = await addRule({
        match: "word",
        value: word("adminonly"),
        action: "flag",
        contexts: ["moments"],
      });
      const body = { match: "word", value: "nope", action: "block", contexts: ["moments"] };
      expect((await h.get("/api/v1/admin/filters", as(member))).status).toBe(403);
      expect((await h.post("/api/v1/admin/filters", body, as(member))).status).toBe(403);
      expect(
        (await h.patch(`/api/v1/admin/filters/${rule.id}`, { action: "block" }, as(member))).status,
      ).toBe(403);
      expect((await h.delete(`/api/v1/admin/filters/${rule.id}`, as(member))).status).toBe(403);
      expect((await h.get("/api/v1/admin/filters")).status).toBe(401);
      expect((await ruleOf(rule.id)).action).toBe("flag");
    });
  });

  describe("block", () => {
    it("refuses a moment with the word however it is written, naming the field; counts the hits", async () => {
      const rule = await addRule({ match: "word", value: "scam", action: "block", contexts: ["moments"] });
      const before = (await h.db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM moments")).rows[0]
        ?.n;
      for (const text of ["ŠCÁM", "sc4m", "what a $c@m!"]) {
        const res = await postMoment(member, text);
        expect(res.status, text).toBe(422);
        expect(res.body.error?.code).toBe("content_blocked");
        expect(res.body.error?.details).toEqual([
          { path: "body", message: "is refused by a content filter" },
        ]);
        expect(JSON.stringify(res.body)).not.toContain(rule.id);
      }
      const after = (await h.db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM moments")).rows[0]
        ?.n;
      expect(after).toBe(before);
      const counted = await ruleOf(rule.id);
      expect(counted.hits).toBe(3);
      expect(counted.last_hit_at).not.toBeNull();
      // Not in a comment (the rule's contexts), nor a word that only contains it.
      expect((await postMoment(member, "scampi for dinner")).status).toBe(201);
      const moment = await postMoment(member, "hello");
      const comment = await h.post(
        `/api/v1/community/moments/${moment.body.data.id}/comments`,
        { body: "scam" },
        as(member),
      );
      expect(comment.status).toBe(201);
      expect((await ruleOf(rule.id)).hits).toBe(3);
      await h.delete(`/api/v1/admin/filters/${rule.id}`, as(admin));
      expect((await postMoment(member, "scam")).status).toBe(201);
    });

    it("refuses in every context", async () => {
      const value = word("banned");
      await addRule({
        match: "word",
        value,
        action: "block",
        contexts: ["moments", "comments", "messages", "profiles", "dating_profiles", "listings"],
      });
      const blocked = async (res: Promise<{ status: number; body: unknown }>, path: string) => {
        const answered = (await res) as { status: number; body: Envelope<null> };
        expect(answered.status, JSON.stringify(answered.body)).toBe(422);
        expect(answered.body.error?.code).toBe("content_blocked");
        expect(answered.body.error?.details?.[0]?.path).toBe(path);
      };
      const text = `this is ${value.toUpperCase()}`;
      const moment = await postMoment(member, "fine");
      await blocked(
        h.post(`/api/v1/community/moments/${moment.body.data.id}/comments`, { body: text }, as(member)),
        "body",
      );

      const other = await h.signIn();
      const conversation = await h.post<Envelope<{ id: string }>>(
        "/api/v1/chat/conversations",
        { other_user_id: other.user.id },
        as(member),
      );
      expect(conversation.status).toBe(201);
      await blocked(
        h.post(
          `/api/v1/chat/conversations/${conversation.body.data.id}/messages`,
          { body: text },
          as(member),
        ),
        "body",
      );
      await blocked(
        h.post("/api/v1/auth/register", {
          username: `fresh_${tag}`,
          email: `${value}@example.com`,
          password: "a fine password",
          display_name: text,
        }),
        "display_name",
      );
      await blocked(
        h.patch("/api/v1/auth/me", { username: member.user.username, display_name: text }, as(member)),
        "display_name",
      );
      await blocked(
        h.put("/api/v1/dating/profile", { visible: true, bio: "hi", interests: ["walks", text] }, as(member)),
        "interests.1",
      );
      const seller = await h.provider();
      const listingId = await h.listing(seller.providerId, { items: [{ name: "Tea", priceAmount: 100 }] });
      await blocked(
        h.post(
          "/api/v1/listings",
          {
            provider_id: seller.providerId,
            category_id: await h.categoryId(),
            name: "Shop",
            description: text,
          },
          as(seller),
        ),
        "description",
      );
      await blocked(h.patch(`/api/v1/listings/${listingId}`, { name: text }, as(seller)), "name");
      await blocked(
        h.post(
          `/api/v1/listings/${listingId}/menu-items`,
          { name: text, price_amount: 100, currency: "USD" },
          as(seller),
        ),
        "name",
      );
      const items = await h.db.sql.query<{ id: string }>("SELECT id FROM menu_items WHERE listing_id = $1", [
        listingId,
      ]);
      await blocked(
        h.patch(`/api/v1/menu-items/${items.rows[0]?.id}`, { description: text }, as(seller)),
        "description",
      );
    });

    it("refuses a link to a blocked domain or its subdomains, and a phrase", async () => {
      const host = `${word("evil")}.example`;
      await addRule({ match: "domain", value: host, action: "block", contexts: ["moments"] });
      await addRule({ match: "phrase", value: "send me bitcoin", action: "block", contexts: ["moments"] });
      expect((await postMoment(member, `visit https://WWW.${host.toUpperCase()}/deal`)).status).toBe(422);
      expect((await postMoment(member, `mail.${host}`)).status).toBe(422);
      expect((await postMoment(member, `not${host}`)).status).toBe(201);
      expect((await postMoment(member, "Please, SEND me B1TCO1N!")).status).toBe(422);
      expect((await postMoment(member, "send bitcoin to me")).status).toBe(201);
    });
  });

  describe("hold", () => {
    it("keeps a moment from everyone but its author until approved, and files one filter report", async () => {
      const value = word("holdme");
      const rule = await addRule({ match: "word", value, action: "hold", contexts: ["moments"] });
      const author = await h.signIn();
      const other = await h.signIn();
      const res = await postMoment(author, `please ${value}`);
      expect(res.status).toBe(201);
      const id = res.body.data.id;
      expect(await feedIds(author)).toContain(id);
      expect(await feedIds(other)).not.toContain(id);
      expect((await h.get(`/api/v1/community/moments/${id}/counters`, as(author))).status).toBe(200);
      expect((await h.get(`/api/v1/community/moments/${id}/counters`, as(other))).status).toBe(404);
      expect((await h.post(`/api/v1/community/moments/${id}/view`, undefined, as(other))).status).toBe(404);
      expect((await h.post(`/api/v1/community/moments/${id}/like`, undefined, as(other))).status).toBe(404);
      expect((await h.get(`/api/v1/community/moments/${id}/comments`, as(other))).status).toBe(404);
      expect(
        (await h.post(`/api/v1/community/moments/${id}/comments`, { body: "hi" }, as(other))).status,
      ).toBe(404);

      const reports = await reportsOf(id);
      expect(reports).toEqual([
        {
          target_type: "moment",
          target_id: id,
          target_owner_id: author.user.id,
          reporter_id: null,
          source: "filter",
          filter_rule_id: rule.id,
          category: "other",
          reason: "other",
          note: `Content filter: word rule "${value}".`,
          snapshot: { body: `please ${value}`, media_asset_ids: [] },
          status: "open",
        },
      ]);
      expect((await ruleOf(rule.id)).hits).toBe(1);

      // Approved by a moderator: everyone sees it, and the filter's report is closed.
      const approved = await h.post(
        `/api/v1/admin/reports/targets/moment/${id}/decision`,
        { action: "approve" },
        as(admin),
      );
      expect(approved.status).toBe(200);
      expect((await reportsOf(id)).map((r) => r.status)).toEqual(["resolved"]);
      expect(await feedIds(other)).toContain(id);
      expect((await h.get(`/api/v1/community/moments/${id}/counters`, as(other))).status).toBe(200);
    });

    it("keeps a comment from everyone but its author until approved", async () => {
      const value = word("holdcomment");
      await addRule({ match: "word", value, action: "hold", contexts: ["comments"] });
      const author = await h.signIn();
      const other = await h.signIn();
      const moment = await postMoment(other, "a moment");
      const momentId = moment.body.data.id;
      const res = await h.post<Envelope<{ id: string }>>(
        `/api/v1/community/moments/${momentId}/comments`,
        { body: `I say ${value.toUpperCase()}` },
        as(author),
      );
      expect(res.status).toBe(201);
      const id = res.body.data.id;
      const listed = async (who: SignedIn) =>
        (
          await h.get<Envelope<{ id: string }[]>>(`/api/v1/community/moments/${momentId}/comments`, as(who))
        ).body.data.map((c) => c.id);
      expect(await listed(author)).toContain(id);
      expect(await listed(other)).not.toContain(id);
      expect(await listed(admin)).not.toContain(id);
      expect(
        (
          await h.post(
            "/api/v1/reports",
            { target_type: "comment", target_id: id, category: "spam" },
            as(other),
          )
        ).status,
      ).toBe(404);
      expect((await reportsOf(id)).map((r) => [r.target_type, r.source, r.status])).toEqual([
        ["comment", "filter", "open"],
      ]);

      expect(
        (
          await h.post(
            `/api/v1/admin/reports/targets/comment/${id}/decision`,
            { action: "approve" },
            as(admin),
          )
        ).status,
      ).toBe(200);
      expect(await listed(other)).toContain(id);
    });

    it("screens an edit as a new moment or comment: blocked (nothing changes), or held until approved", async () => {
      const blocked = word("editblock");
      const held = word("editheld");
      await addRule({ match: "word", value: blocked, action: "block", contexts: ["moments", "comments"] });
      await addRule({ match: "word", value: held, action: "hold", contexts: ["moments", "comments"] });
      const author = await h.signIn();
      const other = await h.signIn();
      const id = (await postMoment(author, "harmless")).body.data.id;
      const refused = await h.patch<Envelope<unknown>>(
        `/api/v1/community/moments/${id}`,
        { body: `now ${blocked}` },
        as(author),
      );
      expect(refused.status).toBe(422);
      expect(refused.body.error?.code).toBe("content_blocked");
      const moment = await h.get<Envelope<{ id: string; body: string; edited_at: string | null }[]>>(
        "/api/v1/community/feed",
        as(other),
      );
      expect(moment.body.data.find((m) => m.id === id)).toMatchObject({ body: "harmless", edited_at: null });

      expect(
        (await h.patch(`/api/v1/community/moments/${id}`, { body: `now ${held}` }, as(author))).status,
      ).toBe(200);
      expect(await feedIds(author)).toContain(id);
      expect(await feedIds(other)).not.toContain(id);
      // Editing again to harmless text does not release the hold: only a moderator does.
      expect(
        (await h.patch(`/api/v1/community/moments/${id}`, { body: "harmless" }, as(author))).status,
      ).toBe(200);
      expect(await feedIds(other)).not.toContain(id);

      const commentOn = (await postMoment(other, "a moment")).body.data.id;
      const comment = await h.post<Envelope<{ id: string }>>(
        `/api/v1/community/moments/${commentOn}/comments`,
        { body: "fine" },
        as(author),
      );
      const edited = await h.patch<Envelope<unknown>>(
        `/api/v1/community/comments/${comment.body.data.id}`,
        { body: blocked.toUpperCase() },
        as(author),
      );
      expect(edited.body.error?.code).toBe("content_blocked");
    });

    it("keeps a dating profile out of browse until approved", async () => {
      const value = word("holddating");
      await addRule({
        match: "phrase",
        value: `${value} please`,
        action: "hold",
        contexts: ["dating_profiles"],
      });
      const author = await h.signIn();
      const other = await h.signIn();
      const put = await h.put(
        "/api/v1/dating/profile",
        { visible: true, bio: `${value} PLEASE`, interests: [] },
        as(author),
      );
      expect(put.status).toBe(200);
      const browsed = async () =>
        (
          await h.get<Envelope<{ user_id: string }[]>>("/api/v1/dating/browse?limit=100", as(other))
        ).body.data.map((p) => p.user_id);
      expect(await browsed()).not.toContain(author.user.id);
      expect((await reportsOf(author.user.id)).map((r) => r.target_type)).toEqual(["dating_profile"]);
      // A later clean save does not release it: a moderator does.
      await h.put("/api/v1/dating/profile", { visible: true, bio: "clean", interests: [] }, as(author));
      expect(await browsed()).not.toContain(author.user.id);
      // Nobody else can report what they cannot see.
      expect(
        (
          await h.post(
            "/api/v1/reports",
            { target_type: "dating_profile", target_id: author.user.id, category: "spam" },
            as(other),
          )
        ).status,
      ).toBe(404);
      expect(
        (
          await h.post(
            `/api/v1/admin/reports/targets/dating_profile/${author.user.id}/decision`,
            { action: "approve" },
            as(admin),
          )
        ).status,
      ).toBe(200);
      expect(await browsed()).toContain(author.user.id);
    });

    it("refuses a name, which cannot be shown to some and not to others", async () => {
      const value = word("holdname");
      await addRule({ match: "word", value, action: "hold", contexts: ["profiles"] });
      const res = await h.patch<Envelope<null>>(
        "/api/v1/auth/me",
        { username: member.user.username, display_name: value },
        as(member),
      );
      expect(res.status).toBe(422);
      expect(res.body.error?.code).toBe("content_blocked");
      expect(res.body.error?.details?.[0]?.path).toBe("display_name");
    });
  });

  describe("flag", () => {
    it("publishes and files one filter report per target and rule; the strongest action wins", async () => {
      const flagged = word("flagme");
      const held = word("holdtoo");
      const flagRule = await addRule({
        match: "word",
        value: flagged,
        action: "flag",
        contexts: ["moments"],
      });
      const holdRule = await addRule({ match: "word", value: held, action: "hold", contexts: ["moments"] });
      const author = await h.signIn();
      const other = await h.signIn();
      const res = await postMoment(author, `${flagged} ${flagged}`);
      expect(res.status).toBe(201);
      expect(await feedIds(other)).toContain(res.body.data.id);
      expect((await reportsOf(res.body.data.id)).map((r) => [r.source, r.filter_rule_id])).toEqual([
        ["filter", flagRule.id],
      ]);

      // Both rules hit: held (hold > flag), both counted, one report (the hold rule's).
      const both = await postMoment(author, `${flagged} and ${held}`);
      expect(both.status).toBe(201);
      expect(await feedIds(other)).not.toContain(both.body.data.id);
      expect((await reportsOf(both.body.data.id)).map((r) => r.filter_rule_id)).toEqual([holdRule.id]);
      expect((await ruleOf(flagRule.id)).hits).toBe(2);
      expect((await ruleOf(holdRule.id)).hits).toBe(1);
    });

    it("files a report for a flagged listing change once while it is open", async () => {
      const value = word("flaglisting");
      const rule = await addRule({ match: "word", value, action: "flag", contexts: ["listings"] });
      const seller = await h.provider();
      const listingId = await h.listing(seller.providerId);
      for (const name of [`Shop ${value}`, `Store ${value}`]) {
        const res = await h.patch(`/api/v1/listings/${listingId}`, { name }, as(seller));
        expect(res.status).toBe(200);
      }
      expect(
        (await reportsOf(listingId)).map((r) => [r.target_type, r.filter_rule_id, r.snapshot?.name]),
      ).toEqual([["listing", rule.id, `Shop ${value}`]]);
    });

    it("files a report for a flagged message, delivered as usual", async () => {
      const value = word("flagmessage");
      await addRule({ match: "word", value, action: "flag", contexts: ["messages"] });
      const other = await h.signIn();
      const conversation = await h.post<Envelope<{ id: string }>>(
        "/api/v1/chat/conversations",
        { other_user_id: other.user.id },
        as(member),
      );
      const sent = await h.post<Envelope<{ id: string }>>(
        `/api/v1/chat/conversations/${conversation.body.data.id}/messages`,
        { body: `hey ${value}` },
        as(member),
      );
      expect(sent.status).toBe(201);
      const history = await h.get<Envelope<{ id: string }[]>>(
        `/api/v1/chat/conversations/${conversation.body.data.id}/messages`,
        as(other),
      );
      expect(history.body.data.map((m) => m.id)).toContain(sent.body.data.id);
      expect((await reportsOf(sent.body.data.id)).map((r) => r.target_type)).toEqual(["message"]);
    });
  });

  describe("races", () => {
    it.skipIf(!onPostgres)(
      "two creates of the same rule in parallel: one 201, one 409 (PostgreSQL only)",
      async () => {
        const value = word("parallel");
        const body = { match: "word", value, action: "block", contexts: ["moments"] };
        const answers = await Promise.all([
          h.post("/api/v1/admin/filters", body, as(admin)),
          h.post("/api/v1/admin/filters", body, as(admin)),
        ]);
        expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
      },
    );
  });
});
