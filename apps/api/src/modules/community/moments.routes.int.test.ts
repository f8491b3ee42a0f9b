import type {
  CommentDto,
  cursorMetaSchema,
  MomentCountersDto,
  MomentDto,
  MomentReportDto,
} from "@agora/contracts/community";
import type { ErrorEnvelope } from "@agora/contracts/envelope";
import { onPostgres } from "@agora/db/test/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";
import { type LocalS3, processedMedia, startLocalS3, TINY_MP4, uploadMedia } from "../../../test/s3";
import { OPENAPI_PATH } from "../../app";

type ErrorBody = Pick<ErrorEnvelope, "error">;
type MomentBody = { data: MomentDto } & ErrorBody;
type FeedBody = { data: MomentDto[]; meta: z.output<typeof cursorMetaSchema> } & ErrorBody;
type CountersBody = { data: MomentCountersDto } & ErrorBody;
type CommentsBody = { data: CommentDto[]; meta: z.output<typeof cursorMetaSchema> } & ErrorBody;
type ReportBody = { data: MomentReportDto } & ErrorBody;

describe("community moments", () => {
  let s3: LocalS3;
  let h: Harness;

  beforeAll(async () => {
    s3 = await startLocalS3();
    h = await createHarness({ seed: false, config: { s3: s3.config } });
  });
  afterAll(async () => {
    await h?.close();
    await s3?.close();
  });

  const publish = async (who: SignedIn, body: Record<string, unknown> = { body: "hello" }) => {
    const res = await h.post<MomentBody>("/api/v1/community/moments", body, { token: who.accessToken });
    if (res.status !== 201) {
      throw new Error(`publish answered ${res.status}: ${JSON.stringify(res.body)}`);
    }
    h.clock.advance(1000);

    return res.body.data;
  };
  const feed = (who: SignedIn, query = "") =>
    h.get<FeedBody>(`/api/v1/community/feed${query}`, { token: who.accessToken });
  const block = (who: SignedIn, other: SignedIn) =>
    h.post(`/api/v1/community/users/${other.user.id}/block`, undefined, { token: who.accessToken });
  const hide = (momentId: string) =>
    h.db.sql.query("UPDATE moments SET hidden_at = $2 WHERE id = $1", [momentId, h.clock.now()]);
  const act = (verb: "like" | "view", momentId: string, who: SignedIn) =>
    h.post<CountersBody>(`/api/v1/community/moments/${momentId}/${verb}`, undefined, {
      token: who.accessToken,
    });
  const counters = (momentId: string, who: SignedIn) =>
    h.get<CountersBody>(`/api/v1/community/moments/${momentId}/counters`, { token: who.accessToken });
  const comments = (momentId: string, who: SignedIn, query = "") =>
    h.get<CommentsBody>(`/api/v1/community/moments/${momentId}/comments${query}`, { token: who.accessToken });
  const comment = (momentId: string, who: SignedIn, body: unknown) =>
    h.post<{ data: CommentDto } & ErrorBody>(`/api/v1/community/moments/${momentId}/comments`, body, {
      token: who.accessToken,
    });
  const report = (momentId: string, who: SignedIn, body: unknown) =>
    h.post<ReportBody>(`/api/v1/community/moments/${momentId}/report`, body, { token: who.accessToken });

  describe("POST /community/moments", () => {
    it("publishes a text moment: public, author summary, zero counters", async () => {
      const ada = await h.signIn();
      const res = await h.post<MomentBody>(
        "/api/v1/community/moments",
        { body: "First light over the harbour", visibility: "public" },
        { token: ada.accessToken },
      );
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        id: expect.any(String),
        author: { id: ada.user.id, username: ada.user.username, display_name: expect.any(String) },
        body: "First light over the harbour",
        visibility: "public",
        media_asset_ids: [],
        counters: { likes: 0, views: 0, comments: 0 },
        liked_by_me: false,
        hidden: false,
        created_at: h.clock.now().toISOString(),
        edited_at: null,
      });
    });

    it("publishes media in the order given; the assets become public and attached, once", async () => {
      const ada = await h.signIn();
      const first = await processedMedia(h, ada.accessToken);
      const second = await processedMedia(h, ada.accessToken, { mimeType: "video/mp4", bytes: TINY_MP4 });
      const moment = await publish(ada, { media_asset_ids: [second.id, first.id] });
      expect(moment.media_asset_ids).toEqual([second.id, first.id]);
      expect(moment.body).toBeNull();
      const { rows } = await h.db.sql.query<{
        id: string;
        status: string;
        visibility: string;
        attached: boolean;
      }>(
        `SELECT id, status, visibility, attached_at IS NOT NULL AS attached FROM media_assets
          WHERE id = ANY($1::uuid[]) ORDER BY id`,
        [[first.id, second.id]],
      );
      expect(rows.map(({ status, visibility, attached }) => ({ status, visibility, attached }))).toEqual([
        { status: "uploaded", visibility: "public", attached: true },
        { status: "uploaded", visibility: "public", attached: true },
      ]);
      const again = await h.post<ErrorBody>(
        "/api/v1/community/moments",
        { body: "again", media_asset_ids: [first.id] },
        { token: ada.accessToken },
      );
      expect(again.status).toBe(422);
      expect(again.body.error.details?.[0]?.path).toBe("media_asset_ids.0");
    });

    it("answers 422 for no text nor media, a long body, another visibility, 6 assets, and assets it cannot take", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const mine = await uploadMedia(h, ada.accessToken);
      const cases: [Record<string, unknown>, string | undefined][] = [
        [{}, "body"],
        [{ body: "   " }, "body"],
        [{ body: "x".repeat(2001) }, "body"],
        [{ body: "hi", visibility: "friends" }, "visibility"],
        [{ media_asset_ids: Array.from({ length: 6 }, () => h.runtime.ids.next()) }, "media_asset_ids"],
        [{ media_asset_ids: [h.runtime.ids.next()] }, "media_asset_ids.0"],
        [{ media_asset_ids: ["not-an-id"] }, "media_asset_ids.0"],
        [{ media_asset_ids: [mine.id, mine.id] }, "media_asset_ids.1"],
        [{ media_asset_ids: [(await uploadMedia(h, bob.accessToken)).id] }, "media_asset_ids.0"],
        [
          { media_asset_ids: [mine.id, (await uploadMedia(h, ada.accessToken, { put: false })).id] },
          "media_asset_ids.1",
        ],
        [
          { media_asset_ids: [(await uploadMedia(h, ada.accessToken, { purpose: "payment_evidence" })).id] },
          "media_asset_ids.0",
        ],
      ];
      for (const [body, path] of cases) {
        const res = await h.post<ErrorBody>("/api/v1/community/moments", body, { token: ada.accessToken });
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body.error.code).toBe("validation_failed");
        expect(res.body.error.details?.[0]?.path, JSON.stringify(body)).toBe(path);
      }
      // Nothing was attached by the refused requests.
      const { rows } = await h.db.sql.query("SELECT attached_at FROM media_assets WHERE id = $1", [mine.id]);
      expect(rows[0]).toEqual({ attached_at: null });
      const text = await h.post(
        "/api/v1/community/moments",
        { body: "x".repeat(2000) },
        { token: ada.accessToken },
      );
      expect(text.status).toBe(201);
      expect((await h.post("/api/v1/community/moments", { body: "hi" })).status).toBe(401);
    });
  });

  it.skipIf(!onPostgres)(
    "gives an asset to one of two moments published with it at once (PostgreSQL only: parallel connections)",
    async () => {
      const ada = await h.signIn();
      const { id } = await processedMedia(h, ada.accessToken);
      const answers = await Promise.all(
        ["one", "two"].map((text) =>
          h.post<MomentBody>(
            "/api/v1/community/moments",
            { body: text, media_asset_ids: [id] },
            { token: ada.accessToken },
          ),
        ),
      );
      expect(answers.map((res) => res.status).sort()).toEqual([201, 422]);
      const { rows } = await h.db.sql.query("SELECT moment_id FROM moment_media WHERE media_asset_id = $1", [
        id,
      ]);
      expect(rows).toEqual([{ moment_id: answers.find((res) => res.status === 201)?.body.data.id }]);
    },
  );

  describe("likes, views and counters", () => {
    it("counts a like once (200 both times) and a view once per user, and says who likes it", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const moment = await publish(ada);
      for (let round = 0; round < 2; round += 1) {
        const res = await act("like", moment.id, bob);
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({ likes: 1, views: 0, comments: 0 });
      }
      expect((await act("view", moment.id, bob)).body.data).toEqual({ likes: 1, views: 1, comments: 0 });
      expect((await act("view", moment.id, bob)).body.data).toEqual({ likes: 1, views: 1, comments: 0 });
      expect((await act("view", moment.id, ada)).body.data).toEqual({ likes: 1, views: 2, comments: 0 });
      const read = await counters(moment.id, ada);
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual({ likes: 1, views: 2, comments: 0 });
      const byBob = (await feed(bob)).body.data.find((m) => m.id === moment.id);
      const byAda = (await feed(ada)).body.data.find((m) => m.id === moment.id);
      expect(byBob).toMatchObject({ liked_by_me: true, counters: { likes: 1, views: 2, comments: 0 } });
      expect(byAda).toMatchObject({ liked_by_me: false });
    });

    it("answers 404 for an unknown, malformed or hidden moment (its author still reaches it), and 401 without a token", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const moment = await publish(ada);
      for (const id of [h.runtime.ids.next(), "nope"]) {
        for (const res of [await act("like", id, bob), await act("view", id, bob), await counters(id, bob)]) {
          expect(res.status, id).toBe(404);
          expect(res.body.error.code).toBe("not_found");
        }
      }
      await hide(moment.id);
      expect((await act("like", moment.id, bob)).status).toBe(404);
      expect((await act("view", moment.id, bob)).status).toBe(404);
      expect((await counters(moment.id, bob)).status).toBe(404);
      expect((await act("like", moment.id, ada)).status).toBe(200);
      expect((await counters(moment.id, ada)).body.data).toEqual({ likes: 1, views: 0, comments: 0 });
      expect((await h.post(`/api/v1/community/moments/${moment.id}/like`)).status).toBe(401);
      expect((await h.get(`/api/v1/community/moments/${moment.id}/counters`)).status).toBe(401);
    });

    it("answers 403 across a block, either way, on like, view and counters", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const carol = await h.signIn();
      const moment = await publish(ada);
      await block(ada, bob);
      await block(carol, ada);
      for (const who of [bob, carol]) {
        for (const res of [
          await act("like", moment.id, who),
          await act("view", moment.id, who),
          await counters(moment.id, who),
        ]) {
          expect(res.status).toBe(403);
          expect(res.body.error.code).toBe("forbidden");
        }
      }
      expect((await counters(moment.id, ada)).body.data).toEqual({ likes: 0, views: 0, comments: 0 });
    });

    it.skipIf(!onPostgres)(
      "keeps the counters equal to a recount after 100 parallel likes and views, and counts one user's parallel likes once (PostgreSQL only: parallel connections)",
      async () => {
        const author = await h.signIn();
        const moment = await publish(author);
        const fans = await Promise.all(Array.from({ length: 50 }, () => h.signIn()));
        const answers = await Promise.all([
          ...fans.map((fan) => act("like", moment.id, fan)),
          ...fans.map((fan) => act("view", moment.id, fan)),
          ...Array.from({ length: 10 }, () => act("like", moment.id, author)),
          ...Array.from({ length: 10 }, () => act("view", moment.id, author)),
        ]);
        expect(answers.filter((res) => res.status !== 200)).toEqual([]);
        const recount = await h.db.sql.query<{ likes: number; views: number }>(
          `SELECT (SELECT count(*)::int FROM moment_likes WHERE moment_id = $1) AS likes,
                  (SELECT count(*)::int FROM moment_views WHERE moment_id = $1) AS views`,
          [moment.id],
        );
        expect(recount.rows[0]).toEqual({ likes: 51, views: 51 });
        expect((await counters(moment.id, author)).body.data).toEqual({ likes: 51, views: 51, comments: 0 });

        await Promise.all(fans.map((fan, i) => comment(moment.id, fan, { body: `nice ${i}` })));
        expect((await counters(moment.id, author)).body.data.comments).toBe(50);
      },
    );
  });

  describe("comments", () => {
    it("adds a comment (201) that moves the counter, and lists newest first with limit and before", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const moment = await publish(ada);
      const res = await comment(moment.id, bob, { body: "  Lovely!  " });
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        id: expect.any(String),
        moment_id: moment.id,
        author: { id: bob.user.id, username: bob.user.username, display_name: expect.any(String) },
        body: "Lovely!",
        created_at: h.clock.now().toISOString(),
        edited_at: null,
      });
      const ids = [res.body.data.id];
      for (let i = 0; i < 4; i += 1) {
        h.clock.advance(1000);
        ids.push((await comment(moment.id, i % 2 ? ada : bob, { body: `comment ${i}` })).body.data.id);
      }
      expect((await counters(moment.id, ada)).body.data.comments).toBe(5);
      const all = await comments(moment.id, ada);
      expect(all.status).toBe(200);
      expect(all.body.data.map((c) => c.id)).toEqual([...ids].reverse());
      expect(all.body.meta).toEqual({ limit: 50, next_before: null });
      const page = await comments(moment.id, ada, "?limit=2");
      expect(page.body.data.map((c) => c.id)).toEqual([ids[4], ids[3]]);
      expect(page.body.meta).toEqual({ limit: 2, next_before: ids[3] });
      const next = await comments(moment.id, ada, `?limit=2&before=${ids[3]}`);
      expect(next.body.data.map((c) => c.id)).toEqual([ids[2], ids[1]]);
      expect((await comments(moment.id, ada, "?limit=100")).body.data).toHaveLength(5);
    });

    it("answers 422 for a limit outside 1-100 or a body outside 1-2000 characters", async () => {
      const ada = await h.signIn();
      const moment = await publish(ada);
      for (const query of ["?limit=0", "?limit=101", "?limit=abc", "?limit=1.5", "?limit=-1"]) {
        const res = await comments(moment.id, ada, query);
        expect(res.status, query).toBe(422);
        expect(res.body.error.code).toBe("validation_failed");
      }
      for (const body of [{}, { body: "" }, { body: "   " }, { body: "x".repeat(2001) }]) {
        expect((await comment(moment.id, ada, body)).status, JSON.stringify(body)).toBe(422);
      }
      expect((await comment(moment.id, ada, { body: "x".repeat(2000) })).status).toBe(201);
    });

    it("hides comments across a block both ways, forbids commenting (403), and 404s a hidden moment", async () => {
      const author = await h.signIn();
      const friend = await h.signIn();
      const troll = await h.signIn();
      const moment = await publish(author);
      await comment(moment.id, friend, { body: "hi" });
      await comment(moment.id, troll, { body: "boo" });
      expect((await comments(moment.id, friend)).body.data.map((c) => c.body)).toEqual(["boo", "hi"]);

      await block(friend, troll);
      expect((await comments(moment.id, friend)).body.data.map((c) => c.body)).toEqual(["hi"]);
      expect((await comments(moment.id, troll)).body.data.map((c) => c.body)).toEqual(["boo"]);
      expect((await comments(moment.id, author)).body.data).toHaveLength(2);

      await block(author, troll);
      const refused = await comment(moment.id, troll, { body: "let me in" });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe("forbidden");
      expect((await comments(moment.id, troll)).status).toBe(403);
      expect((await counters(moment.id, author)).body.data.comments).toBe(2);

      await hide(moment.id);
      expect((await comments(moment.id, friend)).status).toBe(404);
      expect((await comment(moment.id, friend, { body: "?" })).status).toBe(404);
      expect((await comments(moment.id, author)).status).toBe(200);
      expect((await comments(h.runtime.ids.next(), author)).status).toBe(404);
      expect((await h.get(`/api/v1/community/moments/${moment.id}/comments`)).status).toBe(401);
    });
  });

  describe("reports", () => {
    it("files a report (201, open); again while open answers 200 with it; after it is closed, a new one", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const moment = await publish(ada);
      const first = await report(moment.id, bob, { reason: "spam", note: "Same link in every post" });
      expect(first.status).toBe(201);
      expect(first.body.data).toEqual({
        id: expect.any(String),
        moment_id: moment.id,
        reason: "spam",
        note: "Same link in every post",
        status: "open",
        created_at: h.clock.now().toISOString(),
      });
      const again = await report(moment.id, bob, { reason: "abuse" });
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual(first.body.data);
      await h.db.sql.query("UPDATE reports SET status = 'reviewing' WHERE id = $1", [first.body.data.id]);
      expect((await report(moment.id, bob, { reason: "other" })).status).toBe(200);
      const other = await report(moment.id, ada, { reason: "other" });
      expect(other.status).toBe(201);

      await h.db.sql.query("UPDATE reports SET status = 'dismissed', resolved_at = $2 WHERE id = $1", [
        first.body.data.id,
        h.clock.now(),
      ]);
      const renewed = await report(moment.id, bob, { reason: "illegal" });
      expect(renewed.status).toBe(201);
      expect(renewed.body.data.id).not.toBe(first.body.data.id);
      const { rows } = await h.db.sql.query(
        `SELECT reporter_id, reason, status, reviewer_id, resolution_note, reviewed_at
           FROM reports WHERE target_id = $1 ORDER BY created_at, id`,
        [moment.id],
      );
      expect(rows).toHaveLength(3);
      expect(rows.find((row) => row.reason === "illegal")).toEqual({
        reporter_id: bob.user.id,
        reason: "illegal",
        status: "open",
        reviewer_id: null,
        resolution_note: null,
        reviewed_at: null,
      });
    });

    it.skipIf(!onPostgres)(
      "files one report when the same reporter sends ten at once (PostgreSQL only: parallel connections)",
      async () => {
        const ada = await h.signIn();
        const bob = await h.signIn();
        const moment = await publish(ada);
        const answers = await Promise.all(
          Array.from({ length: 10 }, () => report(moment.id, bob, { reason: "spam" })),
        );
        expect(answers.map((res) => res.status).sort()).toEqual([
          200, 200, 200, 200, 200, 200, 200, 200, 200, 201,
        ]);
        expect(new Set(answers.map((res) => res.body.data.id)).size).toBe(1);
      },
    );

    it("answers 422 for another reason or a long note, 404 for an unknown or hidden moment, 403 across a block", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const moment = await publish(ada);
      for (const body of [{}, { reason: "boring" }, { reason: "spam", note: "x".repeat(2001) }]) {
        expect((await report(moment.id, bob, body)).status, JSON.stringify(body)).toBe(422);
      }
      expect((await report(h.runtime.ids.next(), bob, { reason: "spam" })).status).toBe(404);
      await block(ada, bob);
      expect((await report(moment.id, bob, { reason: "abuse" })).status).toBe(403);
      const carol = await h.signIn();
      await hide(moment.id);
      expect((await report(moment.id, carol, { reason: "abuse" })).status).toBe(404);
      expect((await h.post(`/api/v1/community/moments/${moment.id}/report`, { reason: "spam" })).status).toBe(
        401,
      );
    });
  });

  it("documents every community and media route with its statuses", async () => {
    const doc = await h.get<{
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    }>(OPENAPI_PATH);
    const statuses = (method: string, path: string) =>
      Object.keys(doc.body.paths[path]?.[method]?.responses ?? {}).sort();
    // Each route's own statuses, and those every route of its kind shares: 413/415 for a body
    // method, 422 for validated input, 503 for the start-up gate or a database outage.
    const body = ["413", "415", "422", "503"];
    // A write under a per-hour limit also answers 429 (docs/safety.md, "Write limits").
    const limited = ["413", "415", "422", "429", "503"];
    expect(statuses("get", "/api/v1/community/feed")).toEqual(["200", "401", "422", "503"]);
    // 409: idempotency_conflict and idempotency_in_progress (an Idempotency-Key).
    expect(statuses("post", "/api/v1/community/moments")).toEqual(["201", "401", "409", ...limited]);
    for (const [verb, shared] of [
      ["like", limited],
      ["view", body],
    ] as const) {
      expect(statuses("post", `/api/v1/community/moments/{id}/${verb}`)).toEqual([
        "200",
        "401",
        "403",
        "404",
        ...shared,
      ]);
    }
    expect(statuses("get", "/api/v1/community/moments/{id}/counters")).toEqual([
      "200",
      "401",
      "403",
      "404",
      "422",
      "503",
    ]);
    expect(statuses("get", "/api/v1/community/moments/{id}/comments")).toEqual([
      "200",
      "401",
      "403",
      "404",
      "422",
      "503",
    ]);
    expect(statuses("post", "/api/v1/community/moments/{id}/comments")).toEqual([
      "201",
      "401",
      "403",
      "404",
      "409",
      ...limited,
    ]);
    expect(statuses("post", "/api/v1/community/moments/{id}/report")).toEqual([
      "200",
      "201",
      "401",
      "403",
      "404",
      "409",
      ...limited,
    ]);
    expect(statuses("post", "/api/v1/media/upload")).toEqual(["201", "401", "409", ...limited]);
    expect(statuses("get", "/api/v1/media/{id}")).toEqual(["200", "401", "403", "404", "422", "503"]);
  });
});

describe("the community feed", () => {
  let h: Harness;
  let reader: SignedIn;

  beforeAll(async () => {
    h = await createHarness({ seed: false });
    reader = await h.signIn();
  });
  afterAll(async () => {
    await h?.close();
  });

  const publish = async (who: SignedIn, text: string) => {
    const res = await h.post<MomentBody>(
      "/api/v1/community/moments",
      { body: text },
      { token: who.accessToken },
    );
    h.clock.advance(1000);

    return res.body.data.id;
  };
  const feed = (query = "", who: SignedIn = reader) =>
    h.get<FeedBody>(`/api/v1/community/feed${query}`, { token: who.accessToken });

  it("answers the 50 newest moments, newest first, and pages back with before", async () => {
    const authors = await Promise.all([h.signIn(), h.signIn(), h.signIn()]);
    const ids: string[] = [];
    for (let i = 0; i < 55; i += 1) {
      ids.push(await publish(authors[i % 3] as SignedIn, `moment ${i}`));
    }
    const newest = [...ids].reverse();
    const first = await feed();
    expect(first.status).toBe(200);
    expect(first.body.data.map((m) => m.id)).toEqual(newest.slice(0, 50));
    expect(first.body.meta).toEqual({ limit: 50, next_before: newest[49] });
    expect(first.body.data[0]).toMatchObject({ body: "moment 54", liked_by_me: false, hidden: false });
    const second = await feed(`?before=${first.body.meta.next_before}`);
    expect(second.body.data.map((m) => m.id)).toEqual(newest.slice(50));
    expect(second.body.meta.next_before).toBeNull();
    for (const cursor of [h.runtime.ids.next(), "not-an-id"]) {
      const none = await feed(`?before=${cursor}`);
      expect(none.status).toBe(200);
      expect(none.body.data).toEqual([]);
    }
    expect((await h.get("/api/v1/community/feed")).status).toBe(401);
  });

  it("leaves out moments across a block, both ways, until unblocked", async () => {
    const blocked = await h.signIn();
    const blocker = await h.signIn();
    const neutral = await h.signIn();
    const fromBlocked = await publish(blocked, "from the blocked");
    const fromBlocker = await publish(blocker, "from the blocker");
    const fromNeutral = await publish(neutral, "from someone else");
    const ids = async () => (await feed()).body.data.map((m) => m.id);
    expect(await ids()).toEqual(expect.arrayContaining([fromBlocked, fromBlocker, fromNeutral]));

    await h.post(`/api/v1/community/users/${blocked.user.id}/block`, undefined, {
      token: reader.accessToken,
    });
    await h.post(`/api/v1/community/users/${reader.user.id}/block`, undefined, {
      token: blocker.accessToken,
    });
    const after = await ids();
    expect(after).toContain(fromNeutral);
    expect(after).not.toContain(fromBlocked);
    expect(after).not.toContain(fromBlocker);
    // The other side does not see the reader's moments either.
    const mine = await publish(reader, "reader speaks");
    expect((await feed("", blocked)).body.data.map((m) => m.id)).not.toContain(mine);
    expect((await feed("", blocker)).body.data.map((m) => m.id)).not.toContain(mine);
    expect((await feed("", neutral)).body.data.map((m) => m.id)).toContain(mine);

    await h.delete(`/api/v1/community/users/${blocked.user.id}/block`, { token: reader.accessToken });
    expect(await ids()).toContain(fromBlocked);
  });

  it("leaves out hidden moments for everyone but their author, who sees them marked hidden", async () => {
    const author = await h.signIn();
    const id = await publish(author, "about to be hidden");
    await h.db.sql.query("UPDATE moments SET hidden_at = $2 WHERE id = $1", [id, h.clock.now()]);
    expect((await feed()).body.data.map((m) => m.id)).not.toContain(id);
    const own = (await feed("", author)).body.data.find((m) => m.id === id);
    expect(own).toMatchObject({ hidden: true, body: "about to be hidden" });
  });
});
