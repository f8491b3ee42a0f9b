import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";
import { type LocalS3, processedMedia, startLocalS3 } from "../../../test/s3";

type Envelope<T> = { data: T; error: { code: string } | null };

/**
 * docs/safety.md, "Suspension removes an author's presence": while an account is suspended (or
 * deleted), what it published leaves every read by others on the next request; reactivation
 * restores it; nothing is deleted.
 */
describe("a suspended author's presence", () => {
  let s3: LocalS3;
  let h: Harness;
  let admin: SignedIn;

  beforeAll(async () => {
    s3 = await startLocalS3();
    h = await createHarness({ seed: false, config: { s3: s3.config } });
    admin = await h.signIn({ role: "admin" });
  });
  afterAll(async () => {
    await h?.close();
    await s3?.close();
  });

  const as = (s: SignedIn) => ({ token: s.accessToken });

  /** An author with a moment (with a public image), a comment on another's moment and a dating profile. */
  const presentAuthor = async () => {
    const author = await h.signIn();
    const host = await h.signIn();
    const image = await processedMedia(h, author.accessToken);
    const moment = await h.post<Envelope<{ id: string }>>(
      "/api/v1/community/moments",
      { body: "my moment", media_asset_ids: [image.id] },
      as(author),
    );
    expect(moment.status).toBe(201);
    h.clock.advance(1000);
    const hosted = await h.post<Envelope<{ id: string }>>(
      "/api/v1/community/moments",
      { body: "a host's moment" },
      as(host),
    );
    const comment = await h.post<Envelope<{ id: string }>>(
      `/api/v1/community/moments/${hosted.body.data.id}/comments`,
      { body: "a comment by the author" },
      as(author),
    );
    expect(comment.status).toBe(201);
    const dating = await h.request("PUT", "/api/v1/dating/profile", {
      ...as(author),
      body: { visible: true, bio: "hello", interests: ["tea"] },
    });
    expect(dating.status).toBe(200);
    h.clock.advance(1000);

    return {
      author,
      host,
      imageId: image.id,
      momentId: moment.body.data.id,
      hostedId: hosted.body.data.id,
      commentId: comment.body.data.id,
    };
  };

  /** What `viewer` sees of `a`'s records, read by read. */
  const seen = async (viewer: SignedIn, a: Awaited<ReturnType<typeof presentAuthor>>) => {
    const feed = await h.get<Envelope<{ id: string }[]>>("/api/v1/community/feed", as(viewer));
    const comments = await h.get<Envelope<{ id: string }[]>>(
      `/api/v1/community/moments/${a.hostedId}/comments`,
      as(viewer),
    );
    const browse = await h.get<Envelope<{ user_id: string }[]>>(
      "/api/v1/dating/browse?limit=100",
      as(viewer),
    );

    return {
      inFeed: feed.body.data.some((m) => m.id === a.momentId),
      counters: (await h.get(`/api/v1/community/moments/${a.momentId}/counters`, as(viewer))).status,
      like: (await h.post(`/api/v1/community/moments/${a.momentId}/like`, undefined, as(viewer))).status,
      view: (await h.post(`/api/v1/community/moments/${a.momentId}/view`, undefined, as(viewer))).status,
      comments: (await h.get(`/api/v1/community/moments/${a.momentId}/comments`, as(viewer))).status,
      commentShown: comments.body.data.some((c) => c.id === a.commentId),
      inBrowse: browse.body.data.some((p) => p.user_id === a.author.user.id),
      media: (await h.get(`/api/v1/media/${a.imageId}`, as(viewer))).status,
    };
  };
  const present = {
    inFeed: true,
    counters: 200,
    like: 200,
    view: 200,
    comments: 200,
    commentShown: true,
    inBrowse: true,
    media: 200,
  };
  const absent = {
    inFeed: false,
    counters: 404,
    like: 404,
    view: 404,
    comments: 404,
    commentShown: false,
    inBrowse: false,
    media: 403,
  };
  const setStatus = (userId: string, status: "active" | "suspended") =>
    h.patch(`/api/v1/admin/users/${userId}/status`, { status }, as(admin));

  it("suspension: the author's moment, comment, dating profile and media are gone on the next request; reactivation brings them back", async () => {
    const a = await presentAuthor();
    const viewer = await h.signIn();
    expect(await seen(viewer, a)).toEqual(present);

    expect((await setStatus(a.author.user.id, "suspended")).status).toBe(200);
    expect(await seen(viewer, a)).toEqual(absent);
    // The host still sees its own moment, without the suspended author's comment in it.
    expect((await seen(a.host, a)).commentShown).toBe(false);

    expect((await setStatus(a.author.user.id, "active")).status).toBe(200);
    expect(await seen(viewer, a)).toEqual(present);
    // Nothing was deleted: the rows are all there.
    const { rows } = await h.db.sql.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM moments WHERE id = $1)
            + (SELECT count(*) FROM moment_comments WHERE id = $2)
            + (SELECT count(*) FROM dating_profiles WHERE user_id = $3) AS n`,
      [a.momentId, a.commentId, a.author.user.id],
    );
    expect(Number(rows[0]?.n)).toBe(3);
  });

  it("moderation's suspend_user removes the presence the same way", async () => {
    const a = await presentAuthor();
    const reporter = await h.signIn();
    const report = await h.post<Envelope<{ id: string }>>(
      `/api/v1/community/moments/${a.momentId}/report`,
      { reason: "abuse" },
      as(reporter),
    );
    expect(
      (
        await h.post(
          `/api/v1/admin/community/reports/${report.body.data.id}/moderate`,
          { action: "suspend_user" },
          as(admin),
        )
      ).status,
    ).toBe(200);
    expect(await seen(reporter, a)).toEqual(absent);
  });

  it("a deleted author's records are gone for good from others' reads", async () => {
    const a = await presentAuthor();
    const viewer = await h.signIn();
    await h.db.sql.query("UPDATE users SET status = 'deleted' WHERE id = $1", [a.author.user.id]);
    expect(await seen(viewer, a)).toEqual(absent);
  });
});
