import { onPostgres } from "@agora/db/test/databases";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";
import { type LocalS3, processedMedia, startLocalS3, TINY_PNG } from "../../../test/s3";

type ErrorBody = { error: { code: string; details?: { path: string; message: string }[] } };
type MediaItem = {
  id: string;
  url: string;
  width: number | null;
  height: number | null;
  blurhash: string | null;
  variants: { name: string; url: string; width: number; height: number }[];
};
type ListingBody = { data: { id: string; media: MediaItem[] } };

describe("a listing's gallery", () => {
  let s3: LocalS3;
  let h: Harness;

  beforeAll(async () => {
    s3 = await startLocalS3();
    h = await createHarness({ seed: true, config: { s3: s3.config } });
  });
  afterAll(async () => {
    await h?.close();
    await s3?.close();
  });

  const jpeg = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: { r: 200, g: 90, b: 30 } } })
      .jpeg()
      .toBuffer();
  const gallery = (listingId: string, ids: string[], who: SignedIn) =>
    h.patch<ListingBody & ErrorBody>(
      `/api/v1/listings/${listingId}`,
      { media_asset_ids: ids },
      { token: who.accessToken },
    );
  const readMedia = (id: string, who: SignedIn) => h.get(`/api/v1/media/${id}`, { token: who.accessToken });

  it("is read with each image's URL, width, height, blurhash and both variants, in the order given", async () => {
    const seller = await h.orderable({ displayName: "Gallery Shop" });
    const wide = await processedMedia(h, seller.seller.accessToken, {
      purpose: "listing",
      mimeType: "image/jpeg",
      bytes: await jpeg(2000, 1000),
    });
    const small = await processedMedia(h, seller.seller.accessToken, {
      purpose: "listing",
      mimeType: "image/jpeg",
      bytes: await jpeg(300, 200),
    });
    const patched = await gallery(seller.listingId, [wide.id, small.id], seller.seller);
    expect(patched.status).toBe(200);
    expect(patched.body.data.media.map((item) => item.id)).toEqual([wide.id, small.id]);

    // At the start of a minute, so that 30 s later is the same minute.
    h.clock.advance(60_000 - (h.clock.now().getTime() % 60_000) + 1000);
    const read = await h.get<ListingBody>(`/api/v1/listings/${seller.listingId}`);
    expect(read.status).toBe(200);
    const [first, second] = read.body.data.media;
    expect(first).toMatchObject({ id: wide.id, width: 2000, height: 1000 });
    expect(first?.blurhash).toEqual(expect.any(String));
    expect(first?.variants.map((v) => [v.name, v.width, v.height])).toEqual([
      ["thumb", 320, 160],
      ["display", 1280, 640],
    ]);
    // Never enlarged: a 300 px image's variants are 300 px.
    expect(second?.variants.map((v) => [v.name, v.width])).toEqual([
      ["thumb", 300],
      ["display", 300],
    ]);
    for (const url of [first?.url, ...(first?.variants.map((v) => v.url) ?? [])]) {
      const res = await fetch(url ?? "");
      expect(res.status).toBe(200);
    }
    // Never longer than the 5-minute read-URL lifetime from its signing.
    expect(new URL(first?.url ?? "").searchParams.get("X-Amz-Expires")).toBe("300");
    // Public: the same URLs all minute, so caches hit; the next minute signs new ones.
    h.clock.advance(30_000);
    const again = await h.get<ListingBody>(`/api/v1/listings/${seller.listingId}`);
    expect(again.body.data.media[0]?.url).toBe(first?.url);
    expect(again.body.data.media[0]?.variants[0]?.url).toBe(first?.variants[0]?.url);
    h.clock.advance(60_000);
    const later = await h.get<ListingBody>(`/api/v1/listings/${seller.listingId}`);
    expect(later.body.data.media[0]?.url).not.toBe(first?.url);
  });

  it("shows images exactly while the listing is public: a suspended provider's are refused to others", async () => {
    const seller = await h.orderable({ displayName: "Suspended Gallery" });
    const image = await processedMedia(h, seller.seller.accessToken, { purpose: "listing" });
    expect((await gallery(seller.listingId, [image.id], seller.seller)).status).toBe(200);
    const visitor = await h.signIn();
    const admin = await h.signIn({ role: "admin" });
    expect((await readMedia(image.id, visitor)).status).toBe(200);

    const suspend = await h.patch(
      `/api/v1/admin/users/${seller.seller.user.id}/status`,
      { status: "suspended" },
      { token: admin.accessToken },
    );
    expect(suspend.status).toBe(200);
    expect((await readMedia(image.id, visitor)).status).toBe(403);
    expect((await h.get(`/api/v1/listings/${seller.listingId}`)).status).toBe(404);
  });

  it("replaces the gallery: a dropped image is detached for the orphan purge; rejected or foreign ones are refused", async () => {
    const seller = await h.orderable({ displayName: "Replacing Shop" });
    const token = seller.seller.accessToken;
    const kept = await processedMedia(h, token, { purpose: "listing" });
    const dropped = await processedMedia(h, token, { purpose: "listing" });
    expect((await gallery(seller.listingId, [kept.id, dropped.id], seller.seller)).status).toBe(200);
    const replaced = await gallery(seller.listingId, [kept.id], seller.seller);
    expect(replaced.status).toBe(200);
    expect(replaced.body.data.media.map((item) => item.id)).toEqual([kept.id]);
    const { rows } = await h.db.sql.query<{ id: string; attached: boolean; visibility: string }>(
      "SELECT id, attached_at IS NOT NULL AS attached, visibility FROM media_assets WHERE id = ANY($1::uuid[])",
      [[kept.id, dropped.id]],
    );
    expect(Object.fromEntries(rows.map((row) => [row.id, [row.attached, row.visibility]]))).toEqual({
      [kept.id]: [true, "public"],
      [dropped.id]: [false, "private"],
    });

    const notPng = await processedMedia(h, token, {
      purpose: "listing",
      mimeType: "image/jpeg",
      bytes: TINY_PNG,
    });
    const rejected = await gallery(seller.listingId, [kept.id, notPng.id], seller.seller);
    expect(rejected.status).toBe(422);
    expect(rejected.body.error.details?.[0]?.path).toBe("media_asset_ids.1");
    const moment = await processedMedia(h, token, { purpose: "moment" });
    const other = await gallery(seller.listingId, [kept.id, moment.id], seller.seller);
    expect(other.status).toBe(422);
    expect(other.body.error.details?.[0]?.path).toBe("media_asset_ids.1");
    const eleven = await gallery(
      seller.listingId,
      Array.from({ length: 11 }, () => h.runtime.ids.next()),
      seller.seller,
    );
    expect(eleven.status).toBe(422);
    // The refused requests changed nothing.
    const after = await h.get<ListingBody>(`/api/v1/listings/${seller.listingId}`);
    expect(after.body.data.media.map((item) => item.id)).toEqual([kept.id]);
  });

  it.skipIf(!onPostgres)(
    "keeps the gallery whole when two changes race (PostgreSQL only: parallel connections)",
    async () => {
      const seller = await h.orderable({ displayName: "Racing Shop" });
      const token = seller.seller.accessToken;
      const [a, b, c] = [
        await processedMedia(h, token, { purpose: "listing" }),
        await processedMedia(h, token, { purpose: "listing" }),
        await processedMedia(h, token, { purpose: "listing" }),
      ];
      expect((await gallery(seller.listingId, [a.id], seller.seller)).status).toBe(200);
      const answers = await Promise.all([
        gallery(seller.listingId, [a.id, b.id], seller.seller),
        gallery(seller.listingId, [c.id], seller.seller),
      ]);
      // Each either applies or is refused whole (the second may find `a` dropped meanwhile): never a 500.
      for (const answer of answers) {
        expect([200, 422]).toContain(answer.status);
      }
      const read = await h.get<ListingBody>(`/api/v1/listings/${seller.listingId}`);
      const shown = read.body.data.media.map((item) => item.id);
      expect([[a.id, b.id], [c.id]]).toContainEqual(shown);
      const { rows } = await h.db.sql.query<{ id: string; attached: boolean }>(
        "SELECT id, attached_at IS NOT NULL AS attached FROM media_assets WHERE id = ANY($1::uuid[])",
        [[a.id, b.id, c.id]],
      );
      // What the gallery shows is attached; what it does not is left to the orphan purge.
      for (const row of rows) {
        expect(row.attached, row.id).toBe(shown.includes(row.id));
      }
    },
  );
});
