// The media flow as a client written from the specification runs it: ask for an upload, PUT the
// bytes, hand the asset id to a record at once (docs/media.md, "Life of an asset"). Every record
// answers as it always does; its reads show the asset `processing` without a URL, to everyone,
// until the worker made it ready; bytes rejected after a record took them leave every read but
// their owner's. A read never writes. (A JPEG's GPS position, before and after processing:
// media.processing.int.test.ts.)
import type { Sql, SqlExecutor } from "@agora/db/sql";
import { onPostgres } from "@agora/db/test/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";
import {
  type LocalS3,
  processingMediaItem as processing,
  readyMediaItem as ready,
  startLocalS3,
  uploadMedia,
} from "../../../test/s3";

type MediaItem = {
  id: string;
  status: string;
  rejected_reason: string | null;
  url: string | null;
  width: number | null;
  height: number | null;
  blurhash: string | null;
  variants: { name: string; url: string }[];
};
type Envelope<T> = { data: T; error: { code: string; details?: { path: string; message: string }[] } | null };
type MediaRead = Omit<MediaItem, "rejected_reason"> & {
  rejected_reason: string | null;
  retry_after_seconds: number | null;
  expires_at: string | null;
};

describe("a picture is taken the moment it is uploaded", () => {
  let s3: LocalS3;
  let h: Harness;
  /** The statements the app sent while `recording` was on (text; parameters never). */
  const statements: string[] = [];
  let recording = false;
  const record = <E extends SqlExecutor>(executor: E): E => ({
    ...executor,
    query: (text: string, params?: readonly unknown[], name?: string) => {
      if (recording) {
        statements.push(text);
      }

      return executor.query(text, params, name);
    },
  });

  beforeAll(async () => {
    s3 = await startLocalS3();
    h = await createHarness({
      config: { s3: s3.config },
      wrapSql: (sql: Sql) => ({
        ...record(sql),
        transaction: (work, options) => sql.transaction((tx) => work(record(tx)), options),
      }),
    });
  });
  afterAll(async () => {
    await h?.close();
    await s3?.close();
  });

  const as = (who: SignedIn) => ({ token: who.accessToken });
  const upload = async (who: SignedIn, purpose: string, options: { mimeType?: string } = {}) => {
    const uploaded = await uploadMedia(h, who.accessToken, { purpose, ...options });
    expect(uploaded.storeStatus).toBe(200);

    return uploaded.id;
  };
  const readMedia = (id: string, who: SignedIn) => h.get<Envelope<MediaRead>>(`/api/v1/media/${id}`, as(who));
  /** Runs the outbox until it has nothing due (the worker processes uploads in its deliveries). */
  const drainOutbox = async () => {
    for (let round = 0; round < 10; round += 1) {
      if ((await h.runOutboxOnce()).claimed === 0) {
        return;
      }
    }
  };
  const notices = async (who: SignedIn, kind: string) => {
    const inbox = await h.get<Envelope<{ kind: string; data: Record<string, unknown> }[]>>(
      "/api/v1/notifications",
      as(who),
    );
    expect(inbox.status).toBe(200);

    return inbox.body.data.filter((notice) => notice.kind === kind);
  };

  it("takes it at once on a moment, a chat message, a listing gallery and dating photos; every reader sees it processing without a URL, then ready", async () => {
    const ada = await h.signIn();
    const bob = await h.signIn();
    const seller = await h.orderable({ displayName: "At Once Bakery" });

    // A moment.
    const momentImage = await upload(ada, "moment");
    const moment = await h.post<Envelope<{ id: string; media_asset_ids: string[] }>>(
      "/api/v1/community/moments",
      { body: "fresh out of the oven", visibility: "public", media_asset_ids: [momentImage] },
      as(ada),
    );
    expect(moment.status).toBe(201);
    expect(moment.body.data.media_asset_ids).toEqual([momentImage]);

    // A chat message.
    const conversation = await h.post<Envelope<{ id: string }>>(
      "/api/v1/chat/conversations",
      { other_user_id: bob.user.id },
      as(ada),
    );
    const chatImage = await upload(ada, "message");
    const sent = await h.post<Envelope<{ id: string; media: MediaItem[] }>>(
      `/api/v1/chat/conversations/${conversation.body.data.id}/messages`,
      { body: "look", media_asset_ids: [chatImage] },
      as(ada),
    );
    expect(sent.status).toBe(201);
    expect(sent.body.data.media).toEqual([processing(chatImage)]);

    // A listing's gallery.
    const galleryImage = await upload(seller.seller, "listing");
    const gallery = await h.patch<Envelope<{ media: MediaItem[] }>>(
      `/api/v1/listings/${seller.listingId}`,
      { media_asset_ids: [galleryImage] },
      as(seller.seller),
    );
    expect(gallery.status).toBe(200);
    expect(gallery.body.data.media).toEqual([processing(galleryImage)]);

    // A new listing with its gallery (201 as SPEC says).
    const newListingImage = await upload(seller.seller, "listing");
    const created = await h.post<Envelope<{ media: MediaItem[] }>>(
      "/api/v1/listings",
      {
        provider_id: seller.seller.providerId,
        category_id: await h.categoryId(),
        name: "At Once Loaf",
        media_asset_ids: [newListingImage],
      },
      as(seller.seller),
    );
    expect(created.status).toBe(201);
    expect(created.body.data.media).toEqual([processing(newListingImage)]);

    // Dating photos.
    const datingImage = await upload(ada, "dating_photo");
    const profile = await h.put<Envelope<{ media: MediaItem[] }>>(
      "/api/v1/dating/profile",
      { visible: true, bio: "baker", interests: [], media_asset_ids: [datingImage] },
      as(ada),
    );
    expect(profile.status).toBe(200);
    expect(profile.body.data.media).toEqual([processing(datingImage)]);

    /** Every read of the four records by someone else than their owner, as it answers now. */
    const othersRead = async () => {
      const messages = await h.get<Envelope<{ id: string; media: MediaItem[] }[]>>(
        `/api/v1/chat/conversations/${conversation.body.data.id}/messages`,
        as(bob),
      );
      const listing = await h.get<Envelope<{ media: MediaItem[] }>>(`/api/v1/listings/${seller.listingId}`);
      const search = await h.get<Envelope<{ id: string; cover: MediaItem | null }[]>>(
        `/api/v1/listings?q=${encodeURIComponent("At Once Bakery")}`,
      );
      const browse = await h.get<Envelope<{ user_id: string; media: MediaItem[] }[]>>(
        "/api/v1/dating/browse?limit=100",
        as(bob),
      );
      const momentRead = await readMedia(momentImage, bob);
      expect(momentRead.status).toBe(200);

      return {
        moment: momentRead.body.data,
        message: messages.body.data.find((message) => message.id === sent.body.data.id)?.media,
        listing: listing.body.data.media,
        cover: search.body.data.find((item) => item.id === seller.listingId)?.cover,
        dating: browse.body.data.find((item) => item.user_id === ada.user.id)?.media,
      };
    };

    const before = await othersRead();
    expect(before.message).toEqual([processing(chatImage)]);
    expect(before.listing).toEqual([processing(galleryImage)]);
    expect(before.cover).toEqual(processing(galleryImage));
    expect(before.dating).toEqual([processing(datingImage)]);
    expect(before.moment).toMatchObject({
      ...processing(momentImage),
      expires_at: null,
      retry_after_seconds: 2,
    });
    // Its owner is given no URL either while the bytes are unprocessed.
    expect((await readMedia(momentImage, ada)).body.data.url).toBeNull();

    await drainOutbox();
    const after = await othersRead();
    expect(after.message).toEqual([ready(chatImage)]);
    expect(after.listing).toEqual([ready(galleryImage)]);
    expect(after.cover).toEqual(ready(galleryImage));
    expect(after.dating).toEqual([ready(datingImage)]);
    expect(after.moment).toMatchObject({ ...ready(momentImage), retry_after_seconds: null });
    const fetched = await fetch(after.moment.url ?? "");
    expect(fetched.status).toBe(200);
    expect([...Buffer.from(await fetched.arrayBuffer()).subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it("takes it at once as payment evidence, a menu item's image, a provider's logo and an avatar", async () => {
    const buyer = await h.signIn();
    const shop = await h.orderable({ displayName: "At Once Noodles" });
    const order = await h.post<Envelope<{ id: string }>>(
      "/api/v1/orders",
      { menu_item_id: shop.itemId, quantity: 1 },
      as(buyer),
    );
    const payment = await h.post<Envelope<{ id: string }>>(
      `/api/v1/orders/${order.body.data.id}/payments`,
      { method: "walletone_qr" },
      { ...as(buyer), headers: { "idempotency-key": `at-once-${order.body.data.id}` } },
    );
    const evidenceImage = await upload(buyer, "payment_evidence");
    const evidence = await h.post(
      `/api/v1/payments/${payment.body.data.id}/evidence`,
      { media_asset_id: evidenceImage },
      as(buyer),
    );
    expect(evidence.status).toBe(200);
    // Its reviewer reads it processing, without a URL.
    expect((await readMedia(evidenceImage, shop.seller)).body.data).toMatchObject(processing(evidenceImage));

    const itemImage = await upload(shop.seller, "menu_item");
    const item = await h.post<Envelope<{ media: MediaItem[] }>>(
      `/api/v1/listings/${shop.listingId}/menu-items`,
      { name: "Cold noodles", price_amount: 800, currency: "USD", media_asset_ids: [itemImage] },
      as(shop.seller),
    );
    expect(item.status).toBe(201);
    expect(item.body.data.media).toEqual([processing(itemImage)]);

    const logo = await upload(shop.seller, "provider_logo");
    const provider = await h.patch<Envelope<{ media: MediaItem[] }>>(
      "/api/v1/providers/me",
      { media_asset_ids: [logo] },
      as(shop.seller),
    );
    expect(provider.status).toBe(200);
    expect(provider.body.data.media).toEqual([processing(logo)]);

    const avatar = await upload(buyer, "avatar");
    const me = await h.patch<Envelope<{ media: MediaItem[] }>>(
      "/api/v1/auth/me",
      { username: buyer.user.username, display_name: "Pictured", media_asset_ids: [avatar] },
      as(buyer),
    );
    expect(me.status).toBe(200);
    expect(me.body.data.media).toEqual([processing(avatar)]);

    await drainOutbox();
    const listing = await h.get<
      Envelope<{ menu_items: { media: MediaItem[] }[]; provider_media: MediaItem[] }>
    >(`/api/v1/listings/${shop.listingId}`);
    expect(listing.body.data.menu_items.flatMap((entry) => entry.media)).toEqual([ready(itemImage)]);
    expect(listing.body.data.provider_media).toEqual([ready(logo)]);
    expect(
      (await h.get<Envelope<{ media: MediaItem[] }>>("/api/v1/auth/me", as(buyer))).body.data.media,
    ).toEqual([ready(avatar)]);
    expect((await readMedia(evidenceImage, shop.seller)).body.data).toMatchObject(ready(evidenceImage));
  });

  it("takes a PNG declared image/jpeg at once; once rejected it leaves everyone's reads but its owner's, who sees why and gets one notice", async () => {
    const ada = await h.signIn();
    const bob = await h.signIn();
    const seller = await h.orderable({ displayName: "Mislabelled Deli" });

    const momentImage = await upload(ada, "moment", { mimeType: "image/jpeg" });
    const moment = await h.post<Envelope<{ id: string }>>(
      "/api/v1/community/moments",
      { body: "a mislabelled picture", visibility: "public", media_asset_ids: [momentImage] },
      as(ada),
    );
    expect(moment.status).toBe(201);
    const kept = await upload(seller.seller, "listing");
    const galleryImage = await upload(seller.seller, "listing", { mimeType: "image/jpeg" });
    expect(
      (
        await h.patch(
          `/api/v1/listings/${seller.listingId}`,
          { media_asset_ids: [galleryImage, kept] },
          as(seller.seller),
        )
      ).status,
    ).toBe(200);
    // Before processing, the public reads it like any other image.
    expect((await readMedia(momentImage, bob)).body.data.status).toBe("processing");

    await drainOutbox();

    // Others: the moment's image is gone from the feed and refused; the gallery keeps the good image
    // only, and the search cover is that one.
    const feed = await h.get<Envelope<{ id: string; media_asset_ids: string[] }[]>>(
      "/api/v1/community/feed",
      as(bob),
    );
    expect(feed.body.data.find((item) => item.id === moment.body.data.id)?.media_asset_ids).toEqual([]);
    const refused = await readMedia(momentImage, bob);
    expect(refused.status).toBe(403);
    const listing = await h.get<Envelope<{ media: MediaItem[] }>>(`/api/v1/listings/${seller.listingId}`);
    expect(listing.body.data.media.map((item) => [item.id, item.status])).toEqual([[kept, "ready"]]);
    const search = await h.get<Envelope<{ id: string; cover: MediaItem | null }[]>>(
      `/api/v1/listings?q=${encodeURIComponent("Mislabelled Deli")}`,
    );
    expect(search.body.data.find((item) => item.id === seller.listingId)?.cover?.id).toBe(kept);

    // Its owner: the moment still lists it, its read says rejected and why, without a URL.
    const own = await h.get<Envelope<{ id: string; media_asset_ids: string[] }[]>>(
      "/api/v1/community/feed",
      as(ada),
    );
    expect(own.body.data.find((item) => item.id === moment.body.data.id)?.media_asset_ids).toEqual([
      momentImage,
    ]);
    const mine = await readMedia(momentImage, ada);
    expect(mine.status).toBe(200);
    expect(mine.body.data).toMatchObject({ status: "rejected", url: null, retry_after_seconds: null });
    expect(mine.body.data.rejected_reason).toMatch(/image\/png, not the declared image\/jpeg/);
    const gallery = await h.patch<Envelope<{ media: MediaItem[] }>>(
      `/api/v1/listings/${seller.listingId}`,
      { name: "Mislabelled Deli's box" },
      as(seller.seller),
    );
    expect(gallery.body.data.media.map((item) => [item.id, item.status])).toEqual([
      [galleryImage, "rejected"],
      [kept, "ready"],
    ]);
    expect(gallery.body.data.media[0]?.rejected_reason).toMatch(/image\/png/);

    // One notice each, however often the processing event is delivered.
    await drainOutbox();
    expect(await notices(ada, "media.rejected")).toEqual([
      expect.objectContaining({ data: { media_asset_id: momentImage, purpose: "moment" } }),
    ]);
    expect(await notices(seller.seller, "media.rejected")).toEqual([
      expect.objectContaining({ data: { media_asset_id: galleryImage, purpose: "listing" } }),
    ]);
    expect(await notices(bob, "media.rejected")).toEqual([]);

    // A new record does not take it (422), and its place on the moment stays its owner's alone.
    const again = await h.post<Envelope<null>>(
      "/api/v1/community/moments",
      { body: "again", visibility: "public", media_asset_ids: [momentImage] },
      as(ada),
    );
    expect(again.status).toBe(422);
  });

  it("never serves the bytes as uploaded: before processing no read has a URL, after it only the processed copies are in the bucket", async () => {
    const ada = await h.signIn();
    const image = await upload(ada, "moment");
    expect(
      (
        await h.post(
          "/api/v1/community/moments",
          { body: "x", visibility: "public", media_asset_ids: [image] },
          as(ada),
        )
      ).status,
    ).toBe(201);
    expect(await s3.has(`uploads/${image}`)).toBe(true);
    expect((await readMedia(image, ada)).body.data.url).toBeNull();
    await drainOutbox();
    const read = await readMedia(image, ada);
    expect(new URL(read.body.data.url ?? "").pathname).toBe(`/agora-media/media/${image}.full`);
    expect(await s3.has(`uploads/${image}`)).toBe(false);
  });

  it("GET /media/{id} changes nothing: only reads are sent, nothing is queued, the upload stays pending", async () => {
    const ada = await h.signIn();
    const id = await upload(ada, "moment");
    const outbox = async () =>
      (
        await h.db.sql.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM outbox_events WHERE aggregate_id = $1",
          [id],
        )
      ).rows[0]?.n;
    const row = async () =>
      (
        await h.db.sql.query(
          "SELECT status, uploaded_at, processing, attached_at FROM media_assets WHERE id = $1",
          [id],
        )
      ).rows[0];
    const rowBefore = await row();

    statements.length = 0;
    recording = true;
    let answers: number[];
    try {
      answers = [];
      for (let read = 0; read < 3; read += 1) {
        const res = await readMedia(id, ada);
        answers.push(res.status);
        expect(res.body.data).toMatchObject({ status: "pending", url: null });
      }
    } finally {
      recording = false;
    }
    expect(answers).toEqual([200, 200, 200]);
    expect(statements.length).toBeGreaterThan(0);
    const writes = statements.filter((text) =>
      /\b(INSERT|UPDATE|DELETE|MERGE|pg_notify|nextval|FOR UPDATE|FOR NO KEY UPDATE)\b/i.test(text),
    );
    expect(writes).toEqual([]);
    expect(await outbox()).toBe(0);
    expect(await row()).toEqual(rowBefore);
    expect(rowBefore).toMatchObject({ status: "pending", uploaded_at: null, processing: null });
  });

  it("starts processing at the confirmation, so a record sent afterwards answers with the URLs already", async () => {
    const ada = await h.signIn();
    const id = await upload(ada, "dating_photo");
    const confirmed = await h.post<Envelope<MediaRead>>(`/api/v1/media/${id}/confirm`, undefined, as(ada));
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.status).toBe("processing");
    // The worker runs while the user is still writing.
    await drainOutbox();
    const profile = await h.put<Envelope<{ media: MediaItem[] }>>(
      "/api/v1/dating/profile",
      { visible: true, bio: "ready already", interests: [], media_asset_ids: [id] },
      as(ada),
    );
    expect(profile.status).toBe(200);
    expect(profile.body.data.media).toEqual([ready(id)]);
  });

  it.skipIf(!onPostgres)(
    "an attach racing the rejection of its bytes: the record either refuses them or holds them with the owner told, never both or neither (PostgreSQL only: parallel connections)",
    async () => {
      const ada = await h.signIn();
      const ids = await Promise.all(
        Array.from({ length: 8 }, () => upload(ada, "moment", { mimeType: "image/jpeg" })),
      );
      for (const id of ids) {
        expect((await h.post(`/api/v1/media/${id}/confirm`, undefined, as(ada))).status).toBe(200);
      }
      // Each moment is sent while the worker rejects its picture (one batch processes all eight).
      const [answers] = await Promise.all([
        Promise.all(
          ids.map((id) =>
            h.post(
              "/api/v1/community/moments",
              { body: "race", visibility: "public", media_asset_ids: [id] },
              as(ada),
            ),
          ),
        ),
        drainOutbox(),
      ]);
      await drainOutbox();
      const { rows } = await h.db.sql.query<{ id: string; processing: string; attached: boolean }>(
        "SELECT id, processing, attached_at IS NOT NULL AS attached FROM media_assets WHERE id = ANY($1::uuid[])",
        [ids],
      );
      const told = new Set(
        (await notices(ada, "media.rejected")).map((notice) => String(notice.data.media_asset_id)),
      );
      ids.forEach((id, index) => {
        const row = rows.find((entry) => entry.id === id);
        expect(row?.processing, id).toBe("rejected");
        const status = answers[index]?.status;
        // Taken before the rejection committed: on the moment, and its owner told once; refused after.
        expect({ status, attached: row?.attached, told: told.has(id) }, id).toEqual(
          status === 201
            ? { status, attached: true, told: true }
            : { status: 422, attached: false, told: false },
        );
      });
    },
  );
});
