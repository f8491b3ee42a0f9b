import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";
import { type LocalS3, processedMedia, startLocalS3 } from "../../../test/s3";

type Envelope<T> = { data: T; meta: { total: number } | null; error: { code: string } | null };
type Moment = { id: string };
type Comment = { id: string; body: string };
type Provider = { id: string; display_name: string; bio: string; phone: string | null };

describe("DELETE /api/v1/auth/me erases what the account published", () => {
  let s3: LocalS3;
  let h: Harness;
  let admin: SignedIn;
  let viewer: SignedIn;

  beforeAll(async () => {
    s3 = await startLocalS3();
    h = await createHarness({ config: { s3: s3.config } });
    admin = await h.signIn({ role: "admin" });
    viewer = await h.signIn();
  });
  afterAll(async () => {
    await h?.close();
    await s3?.close();
  });

  const as = (s: SignedIn) => ({ token: s.accessToken });
  const publish = async (who: SignedIn, body: Record<string, unknown>) => {
    const res = await h.post<Envelope<Moment>>("/api/v1/community/moments", body, as(who));
    expect(res.status).toBe(201);
    h.clock.advance(1000);

    return res.body.data.id;
  };
  const comment = async (who: SignedIn, momentId: string, body: string) => {
    const res = await h.post<Envelope<Comment>>(
      `/api/v1/community/moments/${momentId}/comments`,
      { body },
      as(who),
    );
    expect(res.status).toBe(201);

    return res.body.data.id;
  };
  const feedIds = async (who: SignedIn) =>
    (await h.get<Envelope<Moment[]>>("/api/v1/community/feed", as(who))).body.data.map((m) => m.id);
  const commentIds = async (who: SignedIn, momentId: string) =>
    (
      await h.get<Envelope<Comment[]>>(`/api/v1/community/moments/${momentId}/comments`, as(who))
    ).body.data.map((c) => c.id);
  const adminProvider = async (id: string) =>
    (await h.get<Envelope<Provider[]>>("/api/v1/admin/providers?limit=100", as(admin))).body.data.find(
      (p) => p.id === id,
    );

  it("takes the moments, comments, profiles, media, inbox and devices away; orders keep their lines without notes", async () => {
    const author = await h.provider({ displayName: "Erased Seller" });
    expect(
      (await h.patch("/api/v1/providers/me", { bio: "Call me any time", phone: "+15550100" }, as(author)))
        .status,
    ).toBe(200);
    expect(
      (
        await h.put(
          "/api/v1/dating/profile",
          { visible: true, bio: "Erase me", interests: ["tea"], birth_year: 1990 },
          as(author),
        )
      ).status,
    ).toBe(200);
    // Processed: its served copy and variants are objects of their own, and go with it.
    const picture = await processedMedia(h, author.accessToken);
    const objects = [
      `media/${picture.id}.full`,
      `media/${picture.id}.thumb.webp`,
      `media/${picture.id}.display.webp`,
    ];
    expect(picture.storeStatus).toBe(200);
    const ownMoment = await publish(author, { body: "my moment", media_asset_ids: [picture.id] });
    const othersMoment = await publish(viewer, { body: "the viewer's moment" });
    const ownComment = await comment(author, othersMoment, "the author's comment");
    const viewerComment = await comment(viewer, othersMoment, "the viewer's comment");
    await comment(viewer, ownMoment, "a reply on the author's moment");
    const seller = await h.orderable();
    const order = await h.post<Envelope<{ id: string }>>(
      "/api/v1/orders",
      { menu_item_id: seller.itemId, quantity: 1, notes: "Ring 555-0100 at the back door" },
      { ...as(author), headers: { "idempotency-key": h.runtime.ids.next() } },
    );
    expect(order.status).toBe(201);
    const confirmed = await h.post(
      `/api/v1/orders/${order.body.data.id}/transition`,
      { status: "confirmed", version: 1 },
      as(seller.seller),
    );
    expect(confirmed.status).toBe(200);
    await h.runOutboxOnce();
    const device = await h.post("/api/v1/devices", { token: "erased-device", platform: "ios" }, as(author));
    expect(device.status).toBe(201);
    const inbox = await h.get<Envelope<unknown[]>>("/api/v1/notifications", as(author));
    expect(inbox.body.data.length).toBeGreaterThan(0);

    // Seen before the deletion, so the checks below can fail.
    expect(await feedIds(viewer)).toContain(ownMoment);
    expect(await commentIds(viewer, othersMoment)).toEqual([viewerComment, ownComment]);
    expect(await adminProvider(author.providerId)).toMatchObject({
      bio: "Call me any time",
      phone: "+15550100",
    });
    const browsedBefore = await h.get<Envelope<{ user_id: string }[]>>(
      "/api/v1/dating/browse?limit=100",
      as(viewer),
    );
    expect(browsedBefore.body.data.map((p) => p.user_id)).toContain(author.user.id);
    for (const key of objects) {
      expect(await s3.has(key)).toBe(true);
    }

    expect((await h.delete("/api/v1/auth/me", as(author))).status).toBe(200);

    expect(await feedIds(viewer)).not.toContain(ownMoment);
    expect((await h.get(`/api/v1/community/moments/${ownMoment}/counters`, as(viewer))).status).toBe(404);
    expect(await commentIds(viewer, othersMoment)).toEqual([viewerComment]);
    const counted = await h.get<Envelope<{ comments: number }>>(
      `/api/v1/community/moments/${othersMoment}/counters`,
      as(viewer),
    );
    expect(counted.body.data.comments).toBe(1);
    expect(await adminProvider(author.providerId)).toMatchObject({ display_name: "", bio: "", phone: null });
    const browsed = await h.get<Envelope<{ user_id: string }[]>>(
      "/api/v1/dating/browse?limit=100",
      as(viewer),
    );
    expect(browsed.body.data.map((p) => p.user_id)).not.toContain(author.user.id);
    const rows = async (sql: string) =>
      (await h.db.sql.query<{ n: number }>(sql, [author.user.id])).rows[0]?.n;
    expect(await rows("SELECT count(*)::int AS n FROM dating_profiles WHERE user_id = $1")).toBe(0);
    expect(await rows("SELECT count(*)::int AS n FROM moments WHERE author_id = $1")).toBe(0);
    expect(await rows("SELECT count(*)::int AS n FROM moment_comments WHERE author_id = $1")).toBe(0);
    expect(await rows("SELECT count(*)::int AS n FROM media_assets WHERE owner_id = $1")).toBe(0);
    expect(await rows("SELECT count(*)::int AS n FROM notifications WHERE user_id = $1")).toBe(0);
    expect(await rows("SELECT count(*)::int AS n FROM devices WHERE user_id = $1")).toBe(0);
    expect((await h.get(`/api/v1/media/${picture.id}`, as(viewer))).status).toBe(404);

    // The objects go through the outbox, once the rows are gone.
    for (const key of objects) {
      expect(await s3.has(key)).toBe(true);
    }
    await h.runOutboxOnce();
    for (const key of objects) {
      expect(await s3.has(key)).toBe(false);
    }

    // The order stays for the provider and the books, without the customer's free text.
    const kept = await h.db.sql.query<{ notes: string | null; total_amount: string; status: string }>(
      "SELECT notes, total_amount::text, status FROM orders WHERE id = $1",
      [order.body.data.id],
    );
    expect(kept.rows).toEqual([{ notes: null, total_amount: "1250", status: "confirmed" }]);
    const audit = await h.db.sql.query<{ action: string }>(
      "SELECT action FROM audit_events WHERE target_id = $1",
      [author.user.id],
    );
    expect(audit.rows.map((row) => row.action)).toContain("user.deleted");
  });

  it("deletes a provider whose listing, menu item and profile carry images: the images go, the listing stays for the books", async () => {
    const { seller, listingId } = await h.orderable({ displayName: "Pictured Leaver" });
    const as_ = as(seller);
    const gallery = await processedMedia(h, seller.accessToken, { purpose: "listing" });
    const itemImage = await processedMedia(h, seller.accessToken, { purpose: "menu_item" });
    const logo = await processedMedia(h, seller.accessToken, { purpose: "provider_logo" });
    expect(
      (await h.patch(`/api/v1/listings/${listingId}`, { media_asset_ids: [gallery.id] }, as_)).status,
    ).toBe(200);
    expect(
      (
        await h.post(
          `/api/v1/listings/${listingId}/menu-items`,
          { name: "Pictured dish", price_amount: 900, currency: "EUR", media_asset_ids: [itemImage.id] },
          as_,
        )
      ).status,
    ).toBe(201);
    expect((await h.patch("/api/v1/providers/me", { media_asset_ids: [logo.id] }, as_)).status).toBe(200);
    const links = async () =>
      (
        await h.db.sql.query<{ n: number }>(
          `SELECT ((SELECT count(*) FROM listing_media WHERE media_asset_id = ANY($1::uuid[]))
                 + (SELECT count(*) FROM menu_item_media WHERE media_asset_id = ANY($1::uuid[]))
                 + (SELECT count(*) FROM provider_media WHERE media_asset_id = ANY($1::uuid[])))::int AS n`,
          [[gallery.id, itemImage.id, logo.id]],
        )
      ).rows[0]?.n;
    expect(await links()).toBe(3);

    expect((await h.delete("/api/v1/auth/me", as_)).status).toBe(200);

    expect(await links()).toBe(0);
    const listing = await h.db.sql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM listings WHERE id = $1",
      [listingId],
    );
    expect(listing.rows[0]?.n).toBe(1);
    expect((await h.get(`/api/v1/listings/${listingId}`)).status).toBe(404);
    expect((await h.get(`/api/v1/media/${gallery.id}`, as(viewer))).status).toBe(404);
  });

  it("leaves other accounts' moments, comments and media alone", async () => {
    const leaving = await h.signIn();
    const staying = await h.signIn();
    const picture = await processedMedia(h, staying.accessToken);
    const kept = await publish(staying, { body: "still here", media_asset_ids: [picture.id] });
    const keptComment = await comment(staying, kept, "mine stays");
    await comment(leaving, kept, "goes away");
    expect((await h.delete("/api/v1/auth/me", as(leaving))).status).toBe(200);
    await h.runOutboxOnce();
    expect(await feedIds(viewer)).toContain(kept);
    expect(await commentIds(viewer, kept)).toEqual([keptComment]);
    expect(await s3.has(`media/${picture.id}.full`)).toBe(true);
    expect((await h.get(`/api/v1/media/${picture.id}`, as(viewer))).status).toBe(200);
  });
});
