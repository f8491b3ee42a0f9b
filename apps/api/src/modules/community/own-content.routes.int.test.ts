import type { CommentDto, MomentCountersDto, MomentDto } from "@agora/contracts/community";
import type { ErrorEnvelope } from "@agora/contracts/envelope";
import { createHousekeeper } from "@agora/db/repositories/housekeeping.repository";
import { onPostgres } from "@agora/db/test/databases";
import { purgeOrphanMedia } from "@agora/domain/common/housekeeping";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";
import { type LocalS3, processedMedia, startLocalS3 } from "../../../test/s3";

type ErrorBody = Pick<ErrorEnvelope, "error">;
type MomentBody = { data: MomentDto } & ErrorBody;
type CommentBody = { data: CommentDto } & ErrorBody;
type DeletedBody = { data: { id: string; deleted: true } } & ErrorBody;
type CountersBody = { data: MomentCountersDto } & ErrorBody;

/** docs/safety.md, "Your own content". */
describe("an author's own moments and comments", () => {
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

  const as = (who: SignedIn) => ({ token: who.accessToken });
  const publish = async (who: SignedIn, body: Record<string, unknown> = { body: "hello" }) => {
    const res = await h.post<MomentBody>("/api/v1/community/moments", body, as(who));
    expect(res.status).toBe(201);
    h.clock.advance(1000);

    return res.body.data;
  };
  const addComment = async (momentId: string, who: SignedIn, body = "nice") => {
    const res = await h.post<CommentBody>(
      `/api/v1/community/moments/${momentId}/comments`,
      { body },
      as(who),
    );
    expect(res.status).toBe(201);
    h.clock.advance(1000);

    return res.body.data;
  };
  const editMoment = (id: string, who: SignedIn, body: unknown) =>
    h.patch<MomentBody>(`/api/v1/community/moments/${id}`, body, as(who));
  const deleteMoment = (id: string, who: SignedIn) =>
    h.delete<DeletedBody>(`/api/v1/community/moments/${id}`, as(who));
  const editComment = (id: string, who: SignedIn, body: unknown) =>
    h.patch<CommentBody>(`/api/v1/community/comments/${id}`, body, as(who));
  const deleteComment = (id: string, who: SignedIn) =>
    h.delete<DeletedBody>(`/api/v1/community/comments/${id}`, as(who));
  const feedIds = async (who: SignedIn) =>
    (await h.get<{ data: MomentDto[] }>("/api/v1/community/feed", as(who))).body.data.map((m) => m.id);
  const commentIds = async (momentId: string, who: SignedIn) =>
    (
      await h.get<{ data: CommentDto[] }>(`/api/v1/community/moments/${momentId}/comments`, as(who))
    ).body.data.map((c) => c.id);
  const counters = (id: string, who: SignedIn) =>
    h.get<CountersBody>(`/api/v1/community/moments/${id}/counters`, as(who));
  const edits = async (targetId: string) =>
    (
      await h.db.sql.query<{ target_type: string; author_id: string; body: string | null }>(
        "SELECT target_type, author_id, body FROM content_edits WHERE target_id = $1 ORDER BY edited_at, body",
        [targetId],
      )
    ).rows;
  const hide = (momentId: string) =>
    h.db.sql.query("UPDATE moments SET hidden_at = $2 WHERE id = $1", [momentId, h.clock.now()]);

  describe("PATCH /community/moments/{id}", () => {
    it("the author edits: the new text and edited_at for everyone, the earlier text kept for moderators only", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const moment = await publish(ada, { body: "First draft" });
      expect(moment.edited_at).toBeNull();
      const res = await editMoment(moment.id, ada, { body: "Second draft" });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        ...moment,
        body: "Second draft",
        edited_at: h.clock.now().toISOString(),
      });
      const seen = (await h.get<{ data: MomentDto[] }>("/api/v1/community/feed", as(bob))).body.data.find(
        (m) => m.id === moment.id,
      );
      expect(seen).toMatchObject({ body: "Second draft", edited_at: h.clock.now().toISOString() });
      expect(JSON.stringify(seen)).not.toContain("First draft");
      h.clock.advance(1000);
      expect((await editMoment(moment.id, ada, { body: "Third draft" })).status).toBe(200);
      expect(await edits(moment.id)).toEqual([
        { target_type: "moment", author_id: ada.user.id, body: "First draft" },
        { target_type: "moment", author_id: ada.user.id, body: "Second draft" },
      ]);
      // The same text again is no edit.
      expect((await editMoment(moment.id, ada, { body: "Third draft" })).status).toBe(200);
      expect(await edits(moment.id)).toHaveLength(2);
    });

    it("is 403 forbidden to another member who sees it, 404 to one who cannot, and the moment is unchanged", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const moment = await publish(ada, { body: "Mine" });
      const refused = await editMoment(moment.id, bob, { body: "Yours now" });
      expect(refused.status).toBe(403);
      expect(refused.body.error?.code).toBe("forbidden");
      expect((await deleteMoment(moment.id, bob)).status).toBe(403);
      await hide(moment.id);
      const hidden = await editMoment(moment.id, bob, { body: "Yours now" });
      expect(hidden.status).toBe(404);
      expect(hidden.body.error?.code).toBe("not_found");
      expect((await deleteMoment(moment.id, bob)).status).toBe(404);
      expect((await editMoment("01935c2f-0c32-7e44-8f50-6b7c8d9eafb0", bob, { body: "x" })).status).toBe(404);
      const { rows } = await h.db.sql.query<{ body: string }>("SELECT body FROM moments WHERE id = $1", [
        moment.id,
      ]);
      expect(rows[0]?.body).toBe("Mine");
      expect(await edits(moment.id)).toEqual([]);
    });

    it("keeps text, media or both: blank text is 422 on a text moment, and removes the text of a moment with media", async () => {
      const ada = await h.signIn();
      const text = await publish(ada, { body: "Only words" });
      const blank = await editMoment(text.id, ada, { body: "   " });
      expect(blank.status).toBe(422);
      expect(blank.body.error).toMatchObject({ code: "validation_failed", details: [{ path: "body" }] });
      expect((await editMoment(text.id, ada, { body: "x".repeat(2001) })).status).toBe(422);
      expect((await editMoment(text.id, ada, {})).status).toBe(422);
      const media = await processedMedia(h, ada.accessToken);
      const withMedia = await publish(ada, { body: "Caption", media_asset_ids: [media.id] });
      const cleared = await editMoment(withMedia.id, ada, { body: "" });
      expect(cleared.status).toBe(200);
      expect(cleared.body.data).toMatchObject({ body: null, media_asset_ids: [media.id] });
      expect(await edits(withMedia.id)).toEqual([
        { target_type: "moment", author_id: ada.user.id, body: "Caption" },
      ]);
    });

    it("lets the author edit a moment hidden by moderation; it stays hidden", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const moment = await publish(ada, { body: "Before" });
      await hide(moment.id);
      const res = await editMoment(moment.id, ada, { body: "After" });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ body: "After", hidden: true });
      expect(await feedIds(bob)).not.toContain(moment.id);
    });

    it.skipIf(!onPostgres)(
      "two edits at once both succeed, one after the other, and each replaced text is kept once (PostgreSQL)",
      async () => {
        const ada = await h.signIn();
        const moment = await publish(ada, { body: "Original" });
        const answers = await Promise.all([
          editMoment(moment.id, ada, { body: "Edit A" }),
          editMoment(moment.id, ada, { body: "Edit B" }),
        ]);
        expect(answers.map((a) => a.status)).toEqual([200, 200]);
        const { rows } = await h.db.sql.query<{ body: string }>("SELECT body FROM moments WHERE id = $1", [
          moment.id,
        ]);
        const last = rows[0]?.body;
        const first = last === "Edit A" ? "Edit B" : "Edit A";
        expect(["Edit A", "Edit B"]).toContain(last);
        expect((await edits(moment.id)).map((e) => e.body).sort()).toEqual([first, "Original"].sort());
      },
    );
  });

  describe("DELETE /community/moments/{id}", () => {
    it("the author deletes: gone for everyone at once, with its comments and edits; its reports stay; again is 404", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const moment = await publish(ada, { body: "Soon gone" });
      const kept = await publish(ada, { body: "Staying" });
      const remark = await addComment(moment.id, bob, "first");
      await editComment(remark.id, bob, { body: "first, edited" });
      await editMoment(moment.id, ada, { body: "Soon gone, edited" });
      await h.post(`/api/v1/community/moments/${moment.id}/like`, undefined, as(bob));
      const reported = await h.post(
        `/api/v1/community/moments/${moment.id}/report`,
        { reason: "spam" },
        as(bob),
      );
      expect(reported.status).toBe(201);
      expect(await feedIds(bob)).toContain(moment.id);

      const res = await deleteMoment(moment.id, ada);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ id: moment.id, deleted: true });
      expect(await feedIds(bob)).not.toContain(moment.id);
      expect(await feedIds(bob)).toContain(kept.id);
      expect(await feedIds(ada)).not.toContain(moment.id);
      expect((await counters(moment.id, bob)).status).toBe(404);
      expect((await counters(moment.id, ada)).status).toBe(404);
      expect((await h.get(`/api/v1/community/moments/${moment.id}/comments`, as(bob))).status).toBe(404);
      const again = await deleteMoment(moment.id, ada);
      expect(again.status).toBe(404);
      expect(again.body.error?.code).toBe("not_found");
      expect(await edits(moment.id)).toEqual([]);
      expect(await edits(remark.id)).toEqual([]);
      const { rows: comments } = await h.db.sql.query("SELECT 1 FROM moment_comments WHERE moment_id = $1", [
        moment.id,
      ]);
      expect(comments).toHaveLength(0);
      const { rows: reports } = await h.db.sql.query<{ target_id: string; status: string }>(
        "SELECT target_id, status FROM reports WHERE target_type = 'moment' AND target_id = $1",
        [moment.id],
      );
      expect(reports).toEqual([{ target_id: moment.id, status: "open" }]);
    });

    it.skipIf(!onPostgres)(
      "edits racing the moment's deletion leave no kept text behind (PostgreSQL)",
      async () => {
        const ada = await h.signIn();
        const bob = await h.signIn();
        for (let round = 0; round < 5; round += 1) {
          const moment = await publish(ada, { body: `round ${round}` });
          const remark = await addComment(moment.id, bob, "before");
          const [edited, commentEdited, deleted] = await Promise.all([
            editMoment(moment.id, ada, { body: "edited" }),
            editComment(remark.id, bob, { body: "after" }),
            deleteMoment(moment.id, ada),
          ]);
          expect(deleted.status).toBe(200);
          expect([200, 404]).toContain(edited.status);
          expect([200, 404]).toContain(commentEdited.status);
          expect(await edits(moment.id)).toEqual([]);
          expect(await edits(remark.id)).toEqual([]);
        }
      },
    );

    it("lets the author delete a moment hidden by moderation", async () => {
      const ada = await h.signIn();
      const moment = await publish(ada);
      await hide(moment.id);
      expect((await deleteMoment(moment.id, ada)).status).toBe(200);
      expect(await feedIds(ada)).not.toContain(moment.id);
    });

    it("sends its media to the purge: detached and private at once, its objects' reads refused to others", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const media = await processedMedia(h, ada.accessToken);
      const moment = await publish(ada, { body: "Photo", media_asset_ids: [media.id] });
      expect((await h.get(`/api/v1/media/${media.id}`, as(bob))).status).toBe(200);
      expect((await deleteMoment(moment.id, ada)).status).toBe(200);
      const { rows } = await h.db.sql.query<{ attached_at: Date | null; visibility: string }>(
        "SELECT attached_at, visibility FROM media_assets WHERE id = $1",
        [media.id],
      );
      expect(rows).toEqual([{ attached_at: null, visibility: "private" }]);
      expect((await h.get(`/api/v1/media/${media.id}`, as(bob))).status).toBe(403);
      // The orphan purge, a day later, deletes the asset with its objects.
      const served = [
        `media/${media.id}.full`,
        `media/${media.id}.thumb.webp`,
        `media/${media.id}.display.webp`,
      ];
      for (const key of served) {
        expect(await s3.has(key), key).toBe(true);
      }
      h.clock.advance(25 * 3600_000);
      const housekeeper = createHousekeeper(h.db.sql, {
        pendingAccountTtlSeconds: h.config.pendingAccountTtlSeconds,
      });
      const counts = await purgeOrphanMedia({ housekeeper, objects: h.runtime.objects.store }, h.clock.now());
      expect(counts.media_objects_failed).toBe(0);
      const { rows: left } = await h.db.sql.query("SELECT 1 FROM media_assets WHERE id = $1", [media.id]);
      expect(left).toEqual([]);
      for (const key of served) {
        expect(await s3.has(key), key).toBe(false);
      }
    });
  });

  describe("comments: PATCH and DELETE /community/comments/{id}", () => {
    it("the author edits a comment: new text and edited_at, the earlier text kept; others are 403, the moment's author too", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const cy = await h.signIn();
      const moment = await publish(ada);
      const remark = await addComment(moment.id, bob, "Nice one");
      const res = await editComment(remark.id, bob, { body: "  Very nice one  " });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        ...remark,
        body: "Very nice one",
        edited_at: h.clock.now().toISOString(),
      });
      expect(await edits(remark.id)).toEqual([
        { target_type: "comment", author_id: bob.user.id, body: "Nice one" },
      ]);
      const listed = (
        await h.get<{ data: CommentDto[] }>(`/api/v1/community/moments/${moment.id}/comments`, as(cy))
      ).body.data;
      expect(listed).toEqual([{ ...remark, body: "Very nice one", edited_at: h.clock.now().toISOString() }]);
      for (const other of [ada, cy]) {
        const refused = await editComment(remark.id, other, { body: "Mine now" });
        expect(refused.status).toBe(403);
        expect(refused.body.error?.code).toBe("forbidden");
      }
      expect((await editComment(remark.id, bob, { body: "   " })).status).toBe(422);
      expect((await editComment(remark.id, bob, { body: "x".repeat(2001) })).status).toBe(422);
      expect((await editComment("01935c2f-0c32-7e44-8f50-6b7c8d9eafb0", bob, { body: "x" })).status).toBe(
        404,
      );
    });

    it("its author or the moment's author deletes a comment; the counter goes down; others are 403; again is 404", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const cy = await h.signIn();
      const moment = await publish(ada);
      const first = await addComment(moment.id, bob, "one");
      const second = await addComment(moment.id, bob, "two");
      const own = await addComment(moment.id, cy, "three");
      expect((await counters(moment.id, ada)).body.data.comments).toBe(3);
      const refused = await deleteComment(first.id, cy);
      expect(refused.status).toBe(403);
      expect(refused.body.error?.code).toBe("forbidden");

      const byAuthor = await deleteComment(first.id, bob);
      expect(byAuthor.status).toBe(200);
      expect(byAuthor.body.data).toEqual({ id: first.id, deleted: true });
      const byMomentAuthor = await deleteComment(second.id, ada);
      expect(byMomentAuthor.status).toBe(200);
      expect((await counters(moment.id, ada)).body.data.comments).toBe(1);
      expect(await commentIds(moment.id, cy)).toEqual([own.id]);
      expect((await deleteComment(first.id, bob)).status).toBe(404);
      expect((await editComment(first.id, bob, { body: "back?" })).status).toBe(404);
      expect((await counters(moment.id, ada)).body.data.comments).toBe(1);
    });

    it("is 404 to a member who cannot see the comment's moment", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const cy = await h.signIn();
      const moment = await publish(ada);
      const remark = await addComment(moment.id, bob);
      await hide(moment.id);
      expect((await deleteComment(remark.id, cy)).status).toBe(404);
      expect((await editComment(remark.id, cy, { body: "x" })).status).toBe(404);
    });

    it.skipIf(!onPostgres)(
      "of two deletions of one comment at once, one is 200, the counter moves once (PostgreSQL)",
      async () => {
        const ada = await h.signIn();
        const bob = await h.signIn();
        const moment = await publish(ada);
        for (let round = 0; round < 5; round += 1) {
          const remark = await addComment(moment.id, bob, `round ${round}`);
          const before = (await counters(moment.id, ada)).body.data.comments;
          const answers = await Promise.all([deleteComment(remark.id, bob), deleteComment(remark.id, ada)]);
          expect(answers.map((a) => a.status).sort()).toEqual([200, 404]);
          expect((await counters(moment.id, ada)).body.data.comments).toBe(before - 1);
        }
        const { rows } = await h.db.sql.query<{ comment_count: number; n: number }>(
          `SELECT m.comment_count, (SELECT count(*)::int FROM moment_comments c WHERE c.moment_id = m.id) AS n
           FROM moments m WHERE m.id = $1`,
          [moment.id],
        );
        expect(rows[0]?.comment_count).toBe(rows[0]?.n);
      },
    );
  });

  describe("DELETE /community/moments/{id}/like", () => {
    const like = (id: string, who: SignedIn) =>
      h.post<CountersBody>(`/api/v1/community/moments/${id}/like`, undefined, as(who));
    const unlike = (id: string, who: SignedIn) =>
      h.delete<CountersBody>(`/api/v1/community/moments/${id}/like`, as(who));

    it("takes the like back (one less), and answers 200 unchanged when not liked", async () => {
      const ada = await h.signIn();
      const bob = await h.signIn();
      const cy = await h.signIn();
      const moment = await publish(ada);
      await like(moment.id, bob);
      await like(moment.id, cy);
      const res = await unlike(moment.id, bob);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ likes: 1, views: 0, comments: 0 });
      const again = await unlike(moment.id, bob);
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual({ likes: 1, views: 0, comments: 0 });
      const never = await unlike(moment.id, ada);
      expect(never.body.data.likes).toBe(1);
      const mine = (await h.get<{ data: MomentDto[] }>("/api/v1/community/feed", as(bob))).body.data.find(
        (m) => m.id === moment.id,
      );
      expect(mine?.liked_by_me).toBe(false);
      await hide(moment.id);
      expect((await unlike(moment.id, cy)).status).toBe(404);
    });

    it.skipIf(!onPostgres)(
      "parallel likes and unlikes of one user keep the counter equal to the likes there are (PostgreSQL)",
      async () => {
        const ada = await h.signIn();
        const fans = await Promise.all(Array.from({ length: 4 }, () => h.signIn()));
        const moment = await publish(ada);
        const answers = await Promise.all(
          fans.flatMap((fan) =>
            Array.from({ length: 6 }, (_, i) =>
              i % 2 === 0 ? like(moment.id, fan) : unlike(moment.id, fan),
            ),
          ),
        );
        expect(answers.every((a) => a.status === 200)).toBe(true);
        const { rows } = await h.db.sql.query<{ like_count: number; n: number }>(
          `SELECT m.like_count, (SELECT count(*)::int FROM moment_likes l WHERE l.moment_id = m.id) AS n
             FROM moments m WHERE m.id = $1`,
          [moment.id],
        );
        expect(rows[0]?.like_count).toBe(rows[0]?.n);
        expect((await counters(moment.id, ada)).body.data.likes).toBe(rows[0]?.n);
      },
    );
  });
});
