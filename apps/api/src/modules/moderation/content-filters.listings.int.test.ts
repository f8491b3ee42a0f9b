import type { ContentFilterDto } from "@agora/contracts/moderation.admin";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";

type Envelope<T> = {
  data: T;
  meta: { limit: number; offset: number; total: number } | null;
  error: { code: string; message: string; details?: { path: string; message: string }[] } | null;
};
type ListingBody = { id: string; name: string; status: string; menu_items: { id: string; name: string }[] };

/**
 * A `hold` rule in the `listings` context (docs/safety.md, "Filters"): a listing or a menu item
 * whose text hits it is saved held (held_at), out of every public read and not orderable, still in
 * its owner's answers, until a moderator approves the listing (which releases its held items too).
 */
describe("content filters: holding listings and menu items", () => {
  let h: Harness;
  let admin: SignedIn;
  let customer: SignedIn;

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.signIn({ role: "admin" });
    customer = await h.signIn();
  });
  afterAll(async () => {
    await h?.close();
  });

  const as = (s: SignedIn) => ({ token: s.accessToken });
  let tag = 0;
  /** A value no other test uses (rules are global to the database). */
  const word = (base: string) => {
    tag += 1;

    return `${base}${"abcdefghij"[tag % 10]}`;
  };
  const holdRule = async (value: string) => {
    const res = await h.post<Envelope<ContentFilterDto>>(
      "/api/v1/admin/filters",
      { match: "word", value, action: "hold", contexts: ["listings"] },
      as(admin),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);

    return res.body.data;
  };
  /** What the public sees of a listing: its detail, contact, search by its name, and the browse total. */
  const publicView = async (id: string, q: string) => {
    const detail = await h.get<Envelope<ListingBody>>(`/api/v1/listings/${id}`);
    const search = await h.get<Envelope<{ id: string }[]>>(`/api/v1/listings?q=${encodeURIComponent(q)}`);
    const browse = await h.get<Envelope<{ id: string }[]>>("/api/v1/listings?limit=100");

    return {
      detail: detail.status,
      contact: (await h.get(`/api/v1/listings/${id}/contact`, as(customer))).status,
      searched: search.body.data.some((listing) => listing.id === id),
      browsed: browse.body.data.some((listing) => listing.id === id),
      total: browse.body.meta?.total,
    };
  };
  const approve = (listingId: string) =>
    h.post(`/api/v1/admin/reports/targets/listing/${listingId}/decision`, { action: "approve" }, as(admin));
  const filterReports = async (listingId: string) =>
    (
      await h.db.sql.query<{ filter_rule_id: string; snapshot: Record<string, unknown>; status: string }>(
        "SELECT filter_rule_id, snapshot, status FROM reports WHERE target_id = $1 AND source = 'filter' ORDER BY created_at",
        [listingId],
      )
    ).rows;
  const order = (menuItemId: string) =>
    h.post<Envelope<{ id: string }>>(
      "/api/v1/orders",
      { menu_item_id: menuItemId, quantity: 1 },
      as(customer),
    );

  it("saves a new listing held: its owner sees and edits it, the public does not until a moderator approves it", async () => {
    const value = word("holdshop");
    const rule = await holdRule(value);
    const seller = await h.provider();
    const created = await h.post<Envelope<ListingBody>>(
      "/api/v1/listings",
      {
        provider_id: seller.providerId,
        category_id: await h.categoryId(),
        name: "Lamp shop",
        description: `Lamps and ${value}`,
      },
      as(seller),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id;
    expect(
      (await h.db.sql.query("SELECT 1 FROM listings WHERE id = $1 AND held_at IS NOT NULL", [id])).rowCount,
    ).toBe(1);
    expect((await filterReports(id)).map((r) => [r.filter_rule_id, r.status])).toEqual([[rule.id, "open"]]);

    // Published as any listing is (paid and approved): public but for the hold.
    await h.db.sql.query(
      `UPDATE listings SET status = 'active', subscription_status = 'active',
              subscription_expires_at = $2::timestamptz + interval '30 days'
        WHERE id = $1`,
      [id, h.clock.now()],
    );
    const before = (await h.get<Envelope<unknown[]>>("/api/v1/listings?limit=100")).body.meta?.total ?? 0;
    expect(await publicView(id, "Lamp shop")).toEqual({
      detail: 404,
      contact: 404,
      searched: false,
      browsed: false,
      total: before,
    });

    // The owner still edits it, and sees it in the answer; a clean edit does not release it.
    const edited = await h.patch<Envelope<ListingBody>>(
      `/api/v1/listings/${id}`,
      { description: "Lamps" },
      as(seller),
    );
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ id, name: "Lamp shop", status: "active" });
    expect((await publicView(id, "Lamp shop")).detail).toBe(404);
    // Admins see it in their list.
    const adminList = await h.get<Envelope<{ id: string }[]>>(
      `/api/v1/admin/listings?q=lamp%20shop`,
      as(admin),
    );
    expect(adminList.body.data.map((listing) => listing.id)).toContain(id);

    // Approved by a moderator: public again, counted again, its filter report closed.
    expect((await approve(id)).status).toBe(200);
    expect(await publicView(id, "Lamp shop")).toEqual({
      detail: 200,
      contact: 200,
      searched: true,
      browsed: true,
      total: before + 1,
    });
    expect((await filterReports(id)).map((r) => r.status)).toEqual(["resolved"]);
  });

  it("takes a public listing out of every public read when a patch is held, and keeps it out after a clean patch", async () => {
    const value = word("holdpatch");
    await holdRule(value);
    const seller = await h.provider();
    const id = await h.listing(seller.providerId, {
      name: "Kite stall",
      items: [{ name: "Kite", priceAmount: 900 }],
    });
    const itemId = (
      await h.db.sql.query<{ id: string }>("SELECT id FROM menu_items WHERE listing_id = $1", [id])
    ).rows[0]?.id as string;
    const shown = await publicView(id, "Kite stall");
    expect(shown).toMatchObject({ detail: 200, contact: 200, searched: true, browsed: true });

    const held = await h.patch<Envelope<ListingBody>>(
      `/api/v1/listings/${id}`,
      { description: `Kites ${value}` },
      as(seller),
    );
    expect(held.status).toBe(200);
    // The owner's answer still lists its items.
    expect(held.body.data.menu_items.map((item) => item.id)).toEqual([itemId]);
    const hidden = {
      detail: 404,
      contact: 404,
      searched: false,
      browsed: false,
      total: (shown.total ?? 0) - 1,
    };
    expect(await publicView(id, "Kite stall")).toEqual(hidden);
    // Its items cannot be ordered: 422 item_unavailable, as for a listing that is not public.
    const refused = await order(itemId);
    expect(refused.status).toBe(422);
    expect(refused.body.error?.code).toBe("item_unavailable");

    // A passing patch never releases a hold.
    expect((await h.patch(`/api/v1/listings/${id}`, { description: "Kites" }, as(seller))).status).toBe(200);
    expect(await publicView(id, "Kite stall")).toEqual(hidden);

    expect((await approve(id)).status).toBe(200);
    expect(await publicView(id, "Kite stall")).toEqual({ ...shown });
    expect((await order(itemId)).status).toBe(201);
  });

  it("keeps a held menu item out of the public menu and unorderable, on a public listing, until the listing is approved", async () => {
    const value = word("holditem");
    const rule = await holdRule(value);
    const seller = await h.provider();
    const id = await h.listing(seller.providerId, {
      name: "Soup kitchen",
      items: [{ name: "Broth", priceAmount: 500 }],
    });
    const added = await h.post<Envelope<{ id: string; name: string }>>(
      `/api/v1/listings/${id}/menu-items`,
      { name: "Stew", description: `Thick ${value}`, price_amount: 700, currency: "USD" },
      as(seller),
    );
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const itemId = added.body.data.id;
    expect(added.body.data.name).toBe("Stew");
    expect((await filterReports(id)).map((r) => [r.filter_rule_id, r.snapshot.menu_item_id])).toEqual([
      [rule.id, itemId],
    ]);

    const menu = async () =>
      (await h.get<Envelope<ListingBody>>(`/api/v1/listings/${id}`)).body.data.menu_items.map(
        (item) => item.name,
      );
    // The listing stays public; only the item is held.
    expect(await menu()).toEqual(["Broth"]);
    const refused = await order(itemId);
    expect(refused.status).toBe(422);
    expect(refused.body.error?.code).toBe("item_unavailable");
    // Its owner sees it (their answers list held items) and edits it; a clean edit keeps it held.
    const patched = await h.patch<Envelope<{ id: string; price_amount: number }>>(
      `/api/v1/menu-items/${itemId}`,
      { price_amount: 750 },
      as(seller),
    );
    expect(patched.status).toBe(200);
    const owner = await h.patch<Envelope<ListingBody>>(
      `/api/v1/listings/${id}`,
      { name: "Soup kitchen" },
      as(seller),
    );
    expect(owner.body.data.menu_items.map((item) => item.name)).toEqual(["Broth", "Stew"]);
    expect(await menu()).toEqual(["Broth"]);
    expect((await order(itemId)).status).toBe(422);

    // A held patch of another item holds it too.
    const brothId = owner.body.data.menu_items[0]?.id as string;
    expect(
      (await h.patch(`/api/v1/menu-items/${brothId}`, { name: `Broth ${value}` }, as(seller))).status,
    ).toBe(200);
    expect(await menu()).toEqual([]);

    // Approving the listing releases its held items.
    expect((await approve(id)).status).toBe(200);
    expect(await menu()).toEqual([`Broth ${value}`, "Stew"]);
    expect((await order(itemId)).status).toBe(201);
    expect(
      (await h.db.sql.query("SELECT 1 FROM menu_items WHERE listing_id = $1 AND held_at IS NOT NULL", [id]))
        .rowCount,
    ).toBe(0);
  });
});
