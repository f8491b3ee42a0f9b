import { randomUUID } from "node:crypto";
import {
  listingPublicIfUnexpired,
  listingPubliclyVisible,
} from "@agora/domain/marketplace/marketplace.policy";
import {
  type ListingVisibilityFacts,
  listingStatuses,
  subscriptionStatuses,
} from "@agora/domain/marketplace/marketplace.types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  listingSearchQuery,
  publicListingStatement,
  visibleAt,
} from "../src/repositories/marketplace/listing-queries";
import { createListingRepository } from "../src/repositories/marketplace/listings.repository";
import { createMenuItemRepository } from "../src/repositories/marketplace/menu-items.repository";
import type { SqlExecutor } from "../src/sql";
import { createTestDatabase, type TestDatabase } from "./databases";
import { at, expiries, rolledBack } from "./rule-plans";

/** When a held listing was held (a content filter, until a moderator approves it). */
const heldAt = new Date(at.getTime() - 3600_000);

/** Every combination of the facts visibility is decided from (4 × 2 × 5 × 2 × 2 × 2 = 320). */
const combinations: (ListingVisibilityFacts & { expiry: keyof typeof expiries })[] = listingStatuses.flatMap(
  (status) =>
    subscriptionStatuses.flatMap((subscriptionStatus) =>
      (Object.keys(expiries) as (keyof typeof expiries)[]).flatMap((expiry) =>
        [true, false].flatMap((providerApproved) =>
          [true, false].flatMap((ownerActive) =>
            [null, heldAt].map((held) => ({
              status,
              subscriptionStatus,
              subscriptionExpiresAt: expiries[expiry],
              expiry,
              providerApproved,
              ownerActive,
              heldAt: held,
            })),
          ),
        ),
      ),
    ),
);

/**
 * The rule of public visibility is one SQL function (listing_publicly_visible, its clock-free part
 * listing_public_if_unexpired) and one domain function of the same name: they agree on every
 * combination, the public reads return exactly what the domain calls visible, and PostgreSQL plans
 * the function as it planned the conditions written out, on the public partial indexes.
 */
describe("public listing visibility: one rule in SQL and in the domain", () => {
  let target: TestDatabase;
  const category = randomUUID();
  const listings = combinations.map((facts) => ({ ...facts, id: randomUUID(), itemId: randomUUID() }));
  const listingIds = listings.map((listing) => listing.id);
  const itemIds = listings.map((listing) => listing.itemId);

  beforeAll(async () => {
    target = await createTestDatabase();
    const sql = target.db.sql;
    const [service, user, provider] = [randomUUID(), randomUUID(), randomUUID()];
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
       VALUES ($1, $2, $3, 'x', 'provider', 'active')`,
      [user, `${user}@example.test`, `lantern-${user.slice(0, 8)}`],
    );
    await sql.query(
      `INSERT INTO provider_profiles (id, user_id, display_name, approval_status, created_at, updated_at)
       VALUES ($1, $2, 'Lantern Co', 'approved', $3, $3)`,
      [provider, user, at],
    );
    // The approval and the owner's status are the listing's mirrored columns: set them directly.
    await sql.query(
      `INSERT INTO listings (id, provider_id, category_id, name, status, subscription_status, subscription_expires_at,
                             provider_approved, owner_active, held_at, search_text, created_at, updated_at)
       SELECT id, $2, $3, 'Lantern ' || n, status, sub, expires, approved, owner, held,
              'lantern ' || n || ' lantern co',
              $4::timestamptz - n * interval '1 second', $4::timestamptz - n * interval '1 second'
         FROM unnest($1::uuid[], $5::text[], $6::text[], $7::timestamptz[], $8::boolean[], $9::boolean[],
                     $10::timestamptz[])
              WITH ORDINALITY AS t(id, status, sub, expires, approved, owner, held, n)`,
      [
        listingIds,
        provider,
        category,
        at,
        combinations.map((c) => c.status),
        combinations.map((c) => c.subscriptionStatus),
        combinations.map((c) => c.subscriptionExpiresAt),
        combinations.map((c) => c.providerApproved),
        combinations.map((c) => c.ownerActive),
        combinations.map((c) => c.heldAt),
      ],
    );
    await sql.query(
      `INSERT INTO menu_items (id, listing_id, name, price_amount, currency, created_at, updated_at)
       SELECT id, listing, 'Wick', 500, 'USD', $3, $3 FROM unnest($1::uuid[], $2::uuid[]) AS t(id, listing)`,
      [itemIds, listingIds, at],
    );
  });
  afterAll(async () => {
    await target?.dispose();
  });

  const visibleIds = () =>
    listings.filter((listing) => listingPubliclyVisible(listing, at)).map((listing) => listing.id);

  it("has the SQL functions and the domain's agree on every combination (NULL, as in WHERE, is not visible)", async () => {
    const { rows } = await target.db.sql.query<{ visible: boolean; unless_expired: boolean }>(
      `SELECT listing_publicly_visible(status, sub, approved, owner, held, expires, $6) IS TRUE AS visible,
              listing_public_if_unexpired(status, sub, approved, owner, held) AS unless_expired
         FROM unnest($1::text[], $2::text[], $3::boolean[], $4::boolean[], $5::timestamptz[], $7::timestamptz[])
              WITH ORDINALITY AS t(status, sub, approved, owner, expires, held, n)
        ORDER BY n`,
      [
        combinations.map((c) => c.status),
        combinations.map((c) => c.subscriptionStatus),
        combinations.map((c) => c.providerApproved),
        combinations.map((c) => c.ownerActive),
        combinations.map((c) => c.subscriptionExpiresAt),
        at,
        combinations.map((c) => c.heldAt),
      ],
    );
    const label = (c: (typeof combinations)[number]) =>
      `${c.status}/${c.subscriptionStatus}/${c.expiry}/approved=${c.providerApproved}/owner=${c.ownerActive}/held=${c.heldAt !== null}`;
    expect(
      combinations.map((c, index) => [label(c), rows[index]?.visible, rows[index]?.unless_expired]),
    ).toEqual(
      combinations.map((c) => [label(c), listingPubliclyVisible(c, at), listingPublicIfUnexpired(c)]),
    );
    // Not vacuous: of the 320, two are visible (all facts public, not held, expiring later today or
    // in days) and five public if unexpired (the same, whatever the expiry); a hold alone takes out
    // as many (the same facts, held).
    expect(visibleIds().length).toBe(2);
    expect(combinations.filter((c) => listingPublicIfUnexpired(c)).length).toBe(5);
    expect(
      combinations.filter((c) => c.heldAt !== null && listingPublicIfUnexpired({ ...c, heldAt: null }))
        .length,
    ).toBe(5);
  });

  it("returns from every public read exactly the listings the domain calls visible, and counts them", async () => {
    const listingRepository = createListingRepository(target.db.sql);
    const menuItems = createMenuItemRepository(target.db.sql);
    const expected = [...visibleIds()].sort();
    const ids = (page: { items: { id: string }[] }) => page.items.map((item) => item.id).sort();
    for (const search of [
      { q: undefined, categoryId: undefined },
      { q: undefined, categoryId: category },
      { q: "lantern", categoryId: undefined },
      { q: "lantern", categoryId: category },
    ]) {
      const page = await listingRepository.search({ ...search, limit: 200, offset: 0 }, at);
      expect({ search, ids: ids(page), total: page.total }).toEqual({
        search,
        ids: expected,
        total: expected.length,
      });
    }
    const one = await Promise.all(listingIds.map((id) => listingRepository.findPublic(id, at)));
    expect(listingIds.filter((_, index) => one[index] !== null).sort()).toEqual(expected);
    const items = await Promise.all(itemIds.map((id) => menuItems.findPublicById(id, at)));
    expect(
      items
        .filter((item) => item !== null)
        .map((item) => item.listingId)
        .sort(),
    ).toEqual(expected);
  });

  /**
   * The conditions as the queries wrote them out before the function: the function must plan the
   * same way (PostgreSQL inlines it, and proves the partial indexes from it), on both databases.
   */
  const writtenOut = (now: string) =>
    `l.status = 'active' AND l.subscription_status = 'active' AND l.provider_approved AND l.owner_active
    AND l.held_at IS NULL AND l.subscription_expires_at > ${now}`;

  const literal = (value: unknown) =>
    value instanceof Date
      ? `'${value.toISOString()}'`
      : typeof value === "number"
        ? String(value)
        : `'${value}'`;

  /** EXPLAIN (COSTS OFF) of a statement as a prepared statement, for a plan mode. */
  const plan = async (tx: SqlExecutor, text: string, values: unknown[], mode: string) => {
    await tx.exec(`SET LOCAL plan_cache_mode = ${mode}`);
    await tx.exec(`PREPARE visibility_plan AS ${text}`);
    try {
      const { rows } = await tx.query<{ "QUERY PLAN": string }>(
        `EXPLAIN (COSTS OFF) EXECUTE visibility_plan(${values.map(literal).join(", ")})`,
      );

      return rows.map((row) => row["QUERY PLAN"]).join("\n");
    } finally {
      await tx.exec("DEALLOCATE visibility_plan");
    }
  };

  /** Runs `work` in a transaction that is rolled back (what it changed is gone), with its result. */

  const statements = () => ({
    browse: listingSearchQuery({ q: undefined, categoryId: undefined, limit: 20, offset: 0 }, at),
    categoryBrowse: listingSearchQuery({ q: undefined, categoryId: category, limit: 20, offset: 0 }, at),
    search: listingSearchQuery({ q: "lantern", categoryId: undefined, limit: 20, offset: 0 }, at),
    categorySearch: listingSearchQuery({ q: "lantern", categoryId: category, limit: 20, offset: 0 }, at),
    byId: { ...publicListingStatement, values: [at, listingIds[0]] },
  });
  const modes = ["force_custom_plan", "force_generic_plan"] as const;

  it("plans every public statement exactly as the written-out conditions did", async () => {
    await rolledBack(target.db, async (tx) => {
      // A table this small is cheapest read whole: without that, the plans show the indexes.
      await tx.exec("SET LOCAL enable_seqscan = off");
      for (const [name, statement] of Object.entries(statements())) {
        expect(statement.text).toContain(visibleAt("$1"));
        const before = statement.text.replaceAll(visibleAt("$1"), writtenOut("$1"));
        for (const mode of modes) {
          expect({ name, mode, plan: await plan(tx, statement.text, statement.values, mode) }).toEqual({
            name,
            mode,
            plan: await plan(tx, before, statement.values, mode),
          });
        }
      }
    });
  });

  it("has the public partial indexes valid, under their names, on the rule's function (rebuilt CONCURRENTLY by 20261203000100)", async () => {
    const { rows } = await target.db.sql.query<{ name: string; valid: boolean; predicate: string }>(
      `SELECT c.relname AS name, i.indisvalid AS valid, pg_get_expr(i.indpred, i.indrelid) AS predicate
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid = 'listings'::regclass AND c.relname LIKE 'listings\\_public\\_%'
        ORDER BY 1`,
    );
    expect(rows.map((row) => row.name)).toEqual([
      "listings_public_category_recent_idx",
      "listings_public_expiry_idx",
      "listings_public_featured_category_recent_idx",
      "listings_public_featured_idx",
      "listings_public_featured_recent_idx",
      "listings_public_recent_idx",
      "listings_public_search_trgm_idx",
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ valid: true });
      expect(row.predicate).toContain(
        "listing_public_if_unexpired(status, subscription_status, provider_approved, owner_active)",
      );
      expect(row.predicate).not.toContain("'active'");
    }
  });

  // Each public partial index, left alone on the table (the others dropped in a transaction that
  // is rolled back; reading the table whole discouraged): the statement it serves uses it, which
  // PostgreSQL does only when it proves the statement's conditions imply the index's predicate.
  it.each([
    ["listings_public_recent_idx", "browse"],
    ["listings_public_featured_recent_idx", "browse"],
    ["listings_public_expiry_idx", "browse"],
    ["listings_public_featured_idx", "browse"],
    ["listings_public_category_recent_idx", "categoryBrowse"],
    ["listings_public_featured_category_recent_idx", "categoryBrowse"],
    ["listings_public_search_trgm_idx", "search"],
    ["listings_public_search_trgm_idx", "categorySearch"],
  ] as const)("proves %s usable by the %s statement", async (index, name) => {
    const statement = statements()[name];
    const plans = await rolledBack(target.db, async (tx) => {
      const { rows } = await tx.query<{ name: string }>(
        `SELECT indexname AS name FROM pg_indexes
          WHERE tablename = 'listings' AND indexname NOT IN ($1, 'listings_pkey')`,
        [index],
      );
      expect(rows.length).toBeGreaterThan(5);
      await tx.exec(
        `${rows.map((row) => `DROP INDEX "${row.name}";`).join(" ")} SET LOCAL enable_seqscan = off`,
      );

      const found: string[] = [];
      for (const mode of modes) {
        found.push(await plan(tx, statement.text, statement.values, mode));
      }

      return found;
    });
    for (const text of plans) {
      expect(text).toMatch(new RegExp(`(Scan using|Scan on) ${index}\\b`));
    }
  });
});
