import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";
import { type LocalS3, processedMedia, startLocalS3 } from "../../../test/s3";

type ErrorBody = { error: { code: string; details?: { path: string; message: string }[] } };
type MediaItem = {
  id: string;
  url: string;
  width: number | null;
  height: number | null;
  blurhash: string | null;
  variants: { name: string; url: string; width: number; height: number }[];
};
type WithMedia = { data: { media: MediaItem[] } };

/** What every record's read shows of a processed image: its size, blurhash and both WebP variants. */
const expectProcessed = (item: MediaItem | undefined, id: string) => {
  expect(item?.id).toBe(id);
  expect(item?.url).toMatch(/^https?:\/\//);
  expect(item?.width).toBeGreaterThan(0);
  expect(item?.height).toBeGreaterThan(0);
  expect(item?.blurhash).toEqual(expect.any(String));
  expect(item?.variants.map((variant) => variant.name)).toEqual(["thumb", "display"]);
};

describe("images of menu items, providers, dating profiles and users", () => {
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

  const image = (who: SignedIn, purpose: string) => processedMedia(h, who.accessToken, { purpose });
  const readMedia = (id: string, who: SignedIn) => h.get(`/api/v1/media/${id}`, { token: who.accessToken });
  const setStatus = async (user: SignedIn, status: "active" | "suspended") => {
    const admin = await h.signIn({ role: "admin" });
    const answer = await h.patch(
      `/api/v1/admin/users/${user.user.id}/status`,
      { status },
      { token: admin.accessToken },
    );
    expect(answer.status).toBe(200);
  };
  const attachedState = async (ids: string[]) => {
    const { rows } = await h.db.sql.query<{ id: string; attached: boolean; visibility: string }>(
      "SELECT id, attached_at IS NOT NULL AS attached, visibility FROM media_assets WHERE id = ANY($1::uuid[])",
      [ids],
    );

    return Object.fromEntries(rows.map((row) => [row.id, [row.attached, row.visibility]]));
  };

  it("a menu item's image: on the item's answers and the public listing; refused to others once the provider is suspended", async () => {
    const { seller, listingId } = await h.orderable({ displayName: "Pictured Kitchen" });
    const photo = await image(seller, "menu_item");
    const created = await h.post<WithMedia & { data: { id: string } } & ErrorBody>(
      `/api/v1/listings/${listingId}/menu-items`,
      { name: "Noodles", price_amount: 900, currency: "USD", media_asset_ids: [photo.id] },
      { token: seller.accessToken },
    );
    expect(created.status).toBe(201);
    expectProcessed(created.body.data.media[0], photo.id);

    const listing = await h.get<{ data: { menu_items: { id: string; media: MediaItem[] }[] } }>(
      `/api/v1/listings/${listingId}`,
    );
    expect(listing.status).toBe(200);
    const item = listing.body.data.menu_items.find((entry) => entry.id === created.body.data.id);
    expectProcessed(item?.media[0], photo.id);
    // The listing's other item has no image: an empty array.
    expect(
      listing.body.data.menu_items.filter((entry) => entry.id !== created.body.data.id)[0]?.media,
    ).toEqual([]);

    const visitor = await h.signIn();
    expect((await readMedia(photo.id, visitor)).status).toBe(200);

    // Replacing the image detaches the old one for the orphan purge; others can no longer read it.
    const next = await image(seller, "menu_item");
    const replaced = await h.patch<WithMedia>(
      `/api/v1/menu-items/${created.body.data.id}`,
      { media_asset_ids: [next.id] },
      { token: seller.accessToken },
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body.data.media.map((entry) => entry.id)).toEqual([next.id]);
    expect(await attachedState([photo.id, next.id])).toEqual({
      [photo.id]: [false, "private"],
      [next.id]: [true, "public"],
    });
    expect((await readMedia(photo.id, visitor)).status).toBe(403);
    expect((await readMedia(next.id, visitor)).status).toBe(200);

    // A suspended provider's images are refused to others, and come back on reactivation.
    await setStatus(seller, "suspended");
    expect((await readMedia(next.id, visitor)).status).toBe(403);
    await setStatus(seller, "active");
    expect((await readMedia(next.id, visitor)).status).toBe(200);
  });

  it("deleting a menu item detaches its image for the orphan purge", async () => {
    const { seller, listingId } = await h.orderable({ displayName: "Deleting Kitchen" });
    const photo = await image(seller, "menu_item");
    const created = await h.post<{ data: { id: string } }>(
      `/api/v1/listings/${listingId}/menu-items`,
      { name: "Soup", price_amount: 500, currency: "USD", media_asset_ids: [photo.id] },
      { token: seller.accessToken },
    );
    expect(created.status).toBe(201);
    expect(await attachedState([photo.id])).toEqual({ [photo.id]: [true, "public"] });
    const deleted = await h.delete(`/api/v1/menu-items/${created.body.data.id}?listing_id=${listingId}`, {
      token: seller.accessToken,
    });
    expect(deleted.status).toBe(200);
    expect(await attachedState([photo.id])).toEqual({ [photo.id]: [false, "private"] });
  });

  it("a provider's logo: on the profile's answers and the public listing; a wrong purpose or another's asset is 422 and changes nothing", async () => {
    const { seller, listingId } = await h.orderable({ displayName: "Logo House" });
    const token = seller.accessToken;
    const logo = await image(seller, "provider_logo");
    const updated = await h.patch<WithMedia>(
      "/api/v1/providers/me",
      { media_asset_ids: [logo.id] },
      { token },
    );
    expect(updated.status).toBe(200);
    expectProcessed(updated.body.data.media[0], logo.id);
    const listing = await h.get<{ data: { provider_media: MediaItem[] } }>(`/api/v1/listings/${listingId}`);
    expectProcessed(listing.body.data.provider_media[0], logo.id);

    const gallery = await image(seller, "listing");
    const wrongPurpose = await h.patch<ErrorBody>(
      "/api/v1/providers/me",
      { media_asset_ids: [gallery.id] },
      { token },
    );
    expect(wrongPurpose.status).toBe(422);
    expect(wrongPurpose.body.error.code).toBe("validation_failed");
    expect(wrongPurpose.body.error.details?.[0]?.path).toBe("media_asset_ids.0");

    const stranger = await h.signIn();
    const theirs = await image(stranger, "provider_logo");
    const foreign = await h.patch<ErrorBody>(
      "/api/v1/providers/me",
      { media_asset_ids: [theirs.id] },
      { token },
    );
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.details?.[0]?.path).toBe("media_asset_ids.0");
    const two = await h.patch<ErrorBody>(
      "/api/v1/providers/me",
      { media_asset_ids: [logo.id, logo.id] },
      { token },
    );
    expect(two.status).toBe(422);

    // The refused requests changed nothing: the logo is still the first one.
    const after = await h.get<{ data: { provider_media: MediaItem[] } }>(`/api/v1/listings/${listingId}`);
    expect(after.body.data.provider_media.map((item) => item.id)).toEqual([logo.id]);
    expect(await attachedState([gallery.id, theirs.id])).toEqual({
      [gallery.id]: [false, "private"],
      [theirs.id]: [false, "private"],
    });
  });

  it("dating photos: in order on the profile and in browse; a block hides them both ways", async () => {
    const member = await h.signIn();
    const first = await image(member, "dating_photo");
    const second = await image(member, "dating_photo");
    const saved = await h.put<WithMedia>(
      "/api/v1/dating/profile",
      { visible: true, bio: "Photos", interests: [], media_asset_ids: [second.id, first.id] },
      { token: member.accessToken },
    );
    expect(saved.status).toBe(200);
    expect(saved.body.data.media.map((item) => item.id)).toEqual([second.id, first.id]);

    const viewer = await h.signIn();
    const browse = async () => {
      const answer = await h.get<{ data: { user_id: string; media: MediaItem[] }[] }>(
        "/api/v1/dating/browse?limit=100",
        { token: viewer.accessToken },
      );
      expect(answer.status).toBe(200);

      return answer.body.data.find((profile) => profile.user_id === member.user.id);
    };
    const seen = await browse();
    expectProcessed(seen?.media[0], second.id);
    expectProcessed(seen?.media[1], first.id);
    expect((await readMedia(first.id, viewer)).status).toBe(200);

    // A PUT without media_asset_ids keeps the photos.
    const kept = await h.put<WithMedia>(
      "/api/v1/dating/profile",
      { visible: true, bio: "Still photos", interests: [] },
      { token: member.accessToken },
    );
    expect(kept.body.data.media.map((item) => item.id)).toEqual([second.id, first.id]);

    const blocked = await h.post(`/api/v1/community/users/${viewer.user.id}/block`, undefined, {
      token: member.accessToken,
    });
    expect(blocked.status).toBe(200);
    expect(await browse()).toBeUndefined();
    expect((await readMedia(first.id, viewer)).status).toBe(403);
    expect((await readMedia(first.id, member)).status).toBe(200);

    const seven = await h.put<ErrorBody>(
      "/api/v1/dating/profile",
      { visible: true, bio: "", interests: [], media_asset_ids: Array.from({ length: 7 }, () => first.id) },
      { token: member.accessToken },
    );
    expect(seven.status).toBe(422);
  });

  it("an avatar: on GET and PATCH /auth/me; readable by other members while the account is active", async () => {
    const member = await h.signIn();
    const token = member.accessToken;
    const avatar = await image(member, "avatar");
    const username = member.user.username;
    const patched = await h.patch<WithMedia>(
      "/api/v1/auth/me",
      { username, display_name: "Pictured", media_asset_ids: [avatar.id] },
      { token },
    );
    expect(patched.status).toBe(200);
    expectProcessed(patched.body.data.media[0], avatar.id);
    const me = await h.get<WithMedia>("/api/v1/auth/me", { token });
    expectProcessed(me.body.data.media[0], avatar.id);

    const other = await h.signIn();
    expect((await readMedia(avatar.id, other)).status).toBe(200);

    // A dating photo is not an avatar.
    const photo = await image(member, "dating_photo");
    const wrong = await h.patch<ErrorBody>(
      "/api/v1/auth/me",
      { username, display_name: "Pictured", media_asset_ids: [photo.id] },
      { token },
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.details?.[0]?.path).toBe("media_asset_ids.0");

    // Replacing the avatar detaches the old one; PATCH without media_asset_ids keeps the new one.
    const next = await image(member, "avatar");
    const replaced = await h.patch<WithMedia>(
      "/api/v1/auth/me",
      { username, display_name: "Pictured", media_asset_ids: [next.id] },
      { token },
    );
    expect(replaced.body.data.media.map((item) => item.id)).toEqual([next.id]);
    expect(await attachedState([avatar.id, next.id])).toEqual({
      [avatar.id]: [false, "private"],
      [next.id]: [true, "public"],
    });
    const renamed = await h.patch<WithMedia>(
      "/api/v1/auth/me",
      { username, display_name: "Renamed" },
      { token },
    );
    expect(renamed.body.data.media.map((item) => item.id)).toEqual([next.id]);
  });

  it("listing search results carry each listing's cover: the first gallery image, null without a gallery", async () => {
    const word = `cover${Date.now().toString(36)}`;
    const pictured = await h.provider({ displayName: "Cover Shop" });
    const bare = await h.provider({ displayName: "Bare Shop" });
    const withGallery = await h.listing(pictured.providerId, { name: `${word} pictured` });
    const withoutGallery = await h.listing(bare.providerId, { name: `${word} bare` });
    const cover = await image(pictured, "listing");
    const other = await image(pictured, "listing");
    const set = await h.patch(
      `/api/v1/listings/${withGallery}`,
      { media_asset_ids: [cover.id, other.id] },
      { token: pictured.accessToken },
    );
    expect(set.status).toBe(200);

    const found = await h.get<{ data: { id: string; cover: MediaItem | null }[] }>(
      `/api/v1/listings?q=${word}`,
    );
    expect(found.status).toBe(200);
    const byId = new Map(found.body.data.map((listing) => [listing.id, listing.cover]));
    expectProcessed(byId.get(withGallery) ?? undefined, cover.id);
    expect(byId.get(withoutGallery)).toBeNull();
  });
});
