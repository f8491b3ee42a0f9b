import { randomUUID } from "node:crypto";
import {
  listingPubliclyVisible,
  menuItemOnOffer,
  menuItemOrderable,
} from "@agora/domain/marketplace/marketplace.policy";
import {
  type ListingVisibilityFacts,
  listingStatuses,
  type MenuItemOrderabilityFacts,
  subscriptionStatuses,
} from "@agora/domain/marketplace/marketplace.types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onOffer, orderableAt } from "../src/repositories/marketplace/listing-queries";
import { createListingRepository } from "../src/repositories/marketplace/listings.repository";
import { createMenuItemRepository } from "../src/repositories/marketplace/menu-items.repository";
import { createMediaAssetRepository } from "../src/repositories/media/media-assets.repository";
import { createOrderRepository } from "../src/repositories/orders/orders.repository";
import type { SqlExecutor } from "../src/sql";
import { createTestDatabase, type TestDatabase } from "./databases";
import {
  at,
  expiries,
  plan,
  planModes,
  recording,
  rolledBack,
  type SentStatement,
  sentNamed,
} from "./rule-plans";

/** The item's deletion: none, or deleted (when does not matter: a deleted item stays deleted). */
const deletions = { kept: null, deleted: expiries.past };

/** A content filter's hold (the item's or the listing's): none, or held (when does not matter). */
const holds = { free: null, held: expiries.past };

type Listing = ListingVisibilityFacts & { id: string; expiry: keyof typeof expiries };
type Item = MenuItemOrderabilityFacts & {
  id: string;
  listing: Listing;
  deletion: keyof typeof deletions;
  hold: keyof typeof holds;
};

/** Every combination of the listing's facts (4 × 2 × 5 × 2 × 2 × 2 = 320), as in the visibility test. */
const listings: Listing[] = listingStatuses.flatMap((status) =>
  subscriptionStatuses.flatMap((subscriptionStatus) =>
    (Object.keys(expiries) as (keyof typeof expiries)[]).flatMap((expiry) =>
      [true, false].flatMap((providerApproved) =>
        [true, false].flatMap((ownerActive) =>
          (Object.keys(holds) as (keyof typeof holds)[]).map((hold) => ({
            id: randomUUID(),
            status,
            subscriptionStatus,
            subscriptionExpiresAt: expiries[expiry],
            expiry,
            providerApproved,
            ownerActive,
            heldAt: holds[hold],
          })),
        ),
      ),
    ),
  ),
);

/** …each with an item of every combination of the item's own facts (× 2 × 2 × 2 = 2560). */
const items: Item[] = listings.flatMap((listing) =>
  [true, false].flatMap((active) =>
    (Object.keys(deletions) as (keyof typeof deletions)[]).flatMap((deletion) =>
      (Object.keys(holds) as (keyof typeof holds)[]).map((hold) => ({
        id: randomUUID(),
        listing,
        active,
        deletedAt: deletions[deletion],
        deletion,
        heldAt: holds[hold],
        hold,
      })),
    ),
  ),
);

const orderable = (item: Item) => menuItemOrderable(item, item.listing, at);
const label = (item: Item) =>
  `${item.listing.status}/${item.listing.subscriptionStatus}/${item.listing.expiry}/approved=${item.listing.providerApproved}/owner=${item.listing.ownerActive}/listing-held=${item.listing.heldAt !== null}/active=${item.active}/${item.deletion}/${item.hold}`;

/**
 * The orderable menu item is one SQL function (menu_item_orderable, which calls the listing's
 * listing_publicly_visible) and one domain function of the same name (menuItemOrderable): they
 * agree on every combination of the facts, every statement that decides orderability (the public
 * item read, the order's write, the public listings' item lists, the media read policy) answers
 * exactly what the domain decides, and PostgreSQL plans the function as it planned the conditions
 * written out.
 */
describe("the orderable menu item: one rule in SQL and in the domain", () => {
  let target: TestDatabase;
  const category = randomUUID();
  const provider = randomUUID();
  const customer = randomUUID();
  const sent: SentStatement[] = [];
  const assetOf = new Map(items.map((item) => [item.id, randomUUID()]));

  beforeAll(async () => {
    target = await createTestDatabase();
    const sql = target.db.sql;
    const [service, owner] = [randomUUID(), randomUUID()];
    await sql.query("INSERT INTO services (id, slug, name) VALUES ($1, $2, 'Food')", [
      service,
      `food-${service}`,
    ]);
    await sql.query("INSERT INTO categories (id, service_id, slug, name) VALUES ($1, $2, $3, 'Soup')", [
      category,
      service,
      `soup-${category}`,
    ]);
    await sql.query(
      `INSERT INTO users (id, email, username, password_hash, role, status)
       SELECT id, id || '@example.test', 'u' || replace(id::text, '-', ''), 'x', role, 'active'
         FROM unnest($1::uuid[], $2::text[]) AS t(id, role)`,
      [
        [owner, customer],
        ["provider", "member"],
      ],
    );
    await sql.query(
      `INSERT INTO provider_profiles (id, user_id, display_name, approval_status, created_at, updated_at)
       VALUES ($1, $2, 'Kettle Co', 'approved', $3, $3)`,
      [provider, owner, at],
    );
    // The approval and the owner's status are the listing's mirrored columns: set them directly.
    await sql.query(
      `INSERT INTO listings (id, provider_id, category_id, name, status, subscription_status, subscription_expires_at,
                             provider_approved, owner_active, held_at, search_text, created_at, updated_at)
       SELECT id, $2, $3, 'Kettle ' || n, status, sub, expires, approved, owner, held, 'kettle ' || n || ' kettle co',
              $4::timestamptz - n * interval '1 second', $4::timestamptz - n * interval '1 second'
         FROM unnest($1::uuid[], $5::text[], $6::text[], $7::timestamptz[], $8::boolean[], $9::boolean[],
                     $10::timestamptz[])
              WITH ORDINALITY AS t(id, status, sub, expires, approved, owner, held, n)`,
      [
        listings.map((listing) => listing.id),
        provider,
        category,
        at,
        listings.map((listing) => listing.status),
        listings.map((listing) => listing.subscriptionStatus),
        listings.map((listing) => listing.subscriptionExpiresAt),
        listings.map((listing) => listing.providerApproved),
        listings.map((listing) => listing.ownerActive),
        listings.map((listing) => listing.heldAt),
      ],
    );
    await sql.query(
      `INSERT INTO menu_items (id, listing_id, name, price_amount, currency, active, deleted_at, held_at, created_at,
                              updated_at)
       SELECT id, listing, 'Broth ' || n, 700, 'USD', active, deleted, held, $5::timestamptz - n * interval '1 second',
              $5::timestamptz
         FROM unnest($1::uuid[], $2::uuid[], $3::boolean[], $4::timestamptz[], $6::timestamptz[])
              WITH ORDINALITY AS t(id, listing, active, deleted, held, n)`,
      [
        items.map((item) => item.id),
        items.map((item) => item.listing.id),
        items.map((item) => item.active),
        items.map((item) => item.deletedAt),
        at,
        items.map((item) => item.heldAt),
      ],
    );
    // Each item with an image, for the media read policy.
    await sql.query(
      `INSERT INTO media_assets (id, owner_id, purpose, mime_type, size_bytes, object_key, created_at)
       SELECT asset, $2, 'menu_item', 'image/jpeg', 1, 'orderable/' || asset, $3 FROM unnest($1::uuid[]) AS t(asset)`,
      [[...assetOf.values()], owner, at],
    );
    await sql.query(
      `INSERT INTO menu_item_media (menu_item_id, position, media_asset_id)
       SELECT item, 0, asset FROM unnest($1::uuid[], $2::uuid[]) AS t(item, asset)`,
      [[...assetOf.keys()], [...assetOf.values()]],
    );
  });
  afterAll(async () => {
    await target?.dispose();
  });

  it("has the SQL function and the domain's agree on every combination (NULL, as in WHERE, is not orderable)", async () => {
    const { rows } = await target.db.sql.query<{ orderable: boolean; on_offer: boolean }>(
      `SELECT menu_item_orderable(active, deleted, held, status, sub, approved, owner, listing_held, expires, $8)
                IS TRUE AS orderable,
              menu_item_on_offer(active, deleted, held) AS on_offer
         FROM unnest($1::boolean[], $2::timestamptz[], $3::text[], $4::text[], $5::boolean[], $6::boolean[],
                     $7::timestamptz[], $9::timestamptz[], $10::timestamptz[])
              WITH ORDINALITY AS t(active, deleted, status, sub, approved, owner, expires, held, listing_held, n)
        ORDER BY n`,
      [
        items.map((item) => item.active),
        items.map((item) => item.deletedAt),
        items.map((item) => item.listing.status),
        items.map((item) => item.listing.subscriptionStatus),
        items.map((item) => item.listing.providerApproved),
        items.map((item) => item.listing.ownerActive),
        items.map((item) => item.listing.subscriptionExpiresAt),
        at,
        items.map((item) => item.heldAt),
        items.map((item) => item.listing.heldAt),
      ],
    );
    expect(items.map((item, index) => [label(item), rows[index]?.orderable, rows[index]?.on_offer])).toEqual(
      items.map((item) => [label(item), orderable(item), menuItemOnOffer(item)]),
    );
    // Not vacuous: of the 2560, the kept, active, free items of the two visible listings are
    // orderable, and every item of a visible listing that is not is refused for its own facts (a
    // hold among them); the same items of the two listings that are visible but for a hold are not.
    expect(items.length).toBe(2560);
    expect(items.filter(orderable).length).toBe(2);
    expect(items.filter(menuItemOnOffer).length).toBe(320);
    expect(items.filter((item) => listingPubliclyVisible(item.listing, at)).length).toBe(16);
    expect(
      items.filter((item) => menuItemOrderable(item, { ...item.listing, heldAt: null }, at)).length,
    ).toBe(4);
  });

  it("answers from every statement deciding orderability exactly what the domain decides", async () => {
    const db = recording(target.db.sql, sent);
    const expected = items
      .filter(orderable)
      .map((item) => item.id)
      .sort();

    // The public item read (what an order is decided from).
    const menuItems = createMenuItemRepository(db);
    const found = await Promise.all(items.map((item) => menuItems.findPublicById(item.id, at)));
    expect(items.filter((_, index) => found[index] !== null).map((item) => item.id)).toEqual(
      items.filter(orderable).map((item) => item.id),
    );

    // The public listing reads: a listing page, a listing, a search page list the orderable items.
    const listingRepository = createListingRepository(db);
    const pages = await Promise.all(
      listings.map((listing) => listingRepository.findPublicPage(listing.id, at)),
    );
    const publics = await Promise.all(
      listings.map((listing) => listingRepository.findPublic(listing.id, at)),
    );
    const listed = (menu: { id: string }[] | undefined) => (menu ?? []).map((item) => item.id);
    expect(pages.flatMap((page) => listed(page?.listing.menu_items)).sort()).toEqual(expected);
    expect(publics.flatMap((listing) => listed(listing?.menu_items)).sort()).toEqual(expected);
    for (const q of [undefined, "kettle"]) {
      const page = await listingRepository.search({ q, categoryId: category, limit: 200, offset: 0 }, at);
      expect({ q, items: page.items.flatMap((listing) => listed(listing.menu_items)).sort() }).toEqual({
        q,
        items: expected,
      });
    }

    // The media read policy: an item's image is public while the item is orderable.
    const media = createMediaAssetRepository(db);
    const attachments = await Promise.all(
      items.map((item) => media.findAttachments(assetOf.get(item.id) ?? "", customer, at)),
    );
    expect(items.filter((_, index) => attachments[index]?.onVisibleMenuItem).map((item) => item.id)).toEqual(
      items.filter(orderable).map((item) => item.id),
    );

    // The order's own write, at the order's time: placed exactly for the orderable items.
    const orders = createOrderRepository(db);
    const outcomes: string[] = [];
    for (const [index, item] of items.entries()) {
      const id = randomUUID();
      outcomes.push(
        await orders.place(
          {
            id,
            customerId: customer,
            guestEmail: null,
            guestPhone: null,
            guestTokenHash: null,
            guestTokenExpiresAt: null,
            guestTokenSealed: null,
            providerId: provider,
            listingId: item.listing.id,
            menuItemId: item.id,
            itemName: `Broth ${index + 1}`,
            unitPriceAmount: 700,
            quantity: 1,
            totalAmount: 700,
            currency: "USD",
            notes: null,
            scheduleAt: null,
            createdAt: at,
            updatedAt: at,
          },
          { id: randomUUID(), kind: "order.created", aggregateType: "order", aggregateId: id, payload: {} },
          undefined,
          null,
        ),
      );
    }
    expect(items.map((item, index) => [label(item), outcomes[index]])).toEqual(
      items.map((item) => [label(item), orderable(item) ? "placed" : "stale"]),
    );
  });

  /** The conditions as they were written out before the function (the listing's too), with the holds. */
  const writtenOut = (now: string, item: string, listing: string) =>
    `(${item}.active AND ${item}.deleted_at IS NULL AND ${item}.held_at IS NULL AND ${listing}.status = 'active'
      AND ${listing}.subscription_status = 'active' AND ${listing}.provider_approved AND ${listing}.owner_active
      AND ${listing}.held_at IS NULL AND ${listing}.subscription_expires_at > ${now})`;
  /** A plan without its filters: the nodes, the indexes and their conditions. */
  const shape = (text: string) =>
    text
      .split("\n")
      .filter((line) => !/^\s*Filter:/.test(line))
      .join("\n");

  it("plans every statement deciding orderability exactly as the written-out conditions did", async () => {
    const item = items.find(orderable);
    if (!item) {
      throw new Error("no orderable item");
    }
    // Each statement as it was sent for the orderable item (or its listing): the plans of its values.
    const about = (...ids: string[]) => sent.filter((one) => ids.some((id) => one.values.includes(id)));
    const asset = assetOf.get(item.id) ?? "";
    const ordering = [
      [sentNamed(about(item.id), "menu_items_public_by_id"), ["$1", "m", "l"]],
      [sentNamed(about(item.id), "orders_place"), ["$17::timestamptz", "m", "l"]],
      [sentNamed(about(asset), "media_assets_attachments"), ["$3", "mi", "l"]],
    ] as const;
    const listing = [
      sentNamed(about(item.listing.id), "listings_public_page_by_id"),
      sentNamed(about(item.listing.id), "listings_public_by_id"),
      sentNamed(sent, "listings_browse_category"),
      sentNamed(sent, "listings_search_category"),
    ];
    const same = async (
      tx: SqlExecutor,
      statement: SentStatement,
      before: string,
      view = (plan: string) => plan,
    ) => {
      for (const mode of planModes) {
        expect({
          name: statement.name,
          mode,
          plan: view(await plan(tx, statement.text, statement.values, mode)),
        }).toEqual({
          name: statement.name,
          mode,
          plan: view(await plan(tx, before, statement.values, mode)),
        });
      }
    };
    await rolledBack(target.db, async (tx) => {
      // Tables this small are cheapest read whole: without that, the plans show the indexes.
      await tx.exec("SET LOCAL enable_seqscan = off");
      for (const [statement, args] of ordering) {
        const call = orderableAt(args[0], args[1], args[2]);
        expect(statement.text, statement.name).toContain(call);
        await same(tx, statement, statement.text.replaceAll(call, writtenOut(args[0], args[1], args[2])));
      }
      // The listing reads' item lists: as the item's part written out, and with the nodes they had
      // when they listed by `m.active` alone (the filter gained the deletion and the hold).
      for (const statement of listing) {
        expect(statement.text, statement.name).toContain(onOffer);
        await same(
          tx,
          statement,
          statement.text.replaceAll(onOffer, "(m.active AND m.deleted_at IS NULL AND m.held_at IS NULL)"),
        );
        await same(tx, statement, statement.text.replaceAll(onOffer, "m.active"), shape);
      }
    });
  });
});
