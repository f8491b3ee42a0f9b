import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createListingPageCache } from "../src/listing-cache";
import { withListingSearchSharing } from "../src/repositories/marketplace/cached-listings";
import { createListingRepository } from "../src/repositories/marketplace/listings.repository";
import type { SqlExecutor } from "../src/sql";
import { createTestDatabase, type TestDatabase } from "./databases";

/**
 * A search that arrives while the same search's query runs: that query began before it came, so
 * its answer is shared only when the catalog stamp shows nothing changed in between. The database
 * is real; the executor only holds the search statement's result until the test lets it go, so the
 * second request is sure to arrive while the first query is in flight.
 */
describe("listing search: sharing a query already in flight", () => {
  let target: TestDatabase;
  const listingId = randomUUID();
  const now = new Date();

  beforeAll(async () => {
    target = await createTestDatabase();
    const [service, category, user, provider] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await target.db.sql.query("INSERT INTO services (id, slug, name) VALUES ($1, $2, 'Food')", [
      service,
      `food-${service}`,
    ]);
    await target.db.sql.query(
      "INSERT INTO categories (id, service_id, slug, name) VALUES ($1, $2, $3, 'Soup')",
      [category, service, `soup-${category}`],
    );
    await target.db.sql.query(
      `INSERT INTO users (id, email, username, password_hash, role, status)
       VALUES ($1, $2, $3, 'x', 'provider', 'active')`,
      [user, `${user}@example.test`, `kettle-${user.slice(0, 8)}`],
    );
    await target.db.sql.query(
      `INSERT INTO provider_profiles (id, user_id, display_name, approval_status, created_at, updated_at)
       VALUES ($1, $2, 'Kettle Co', 'approved', now(), now())`,
      [provider, user],
    );
    await target.db.sql.query(
      `INSERT INTO listings (id, provider_id, category_id, name, status, subscription_status,
                             subscription_expires_at, provider_approved, search_text, created_at, updated_at)
       VALUES ($1, $2, $3, 'Marrow Soup', 'active', 'active', now() + interval '30 days', true,
               'marrow soup kettle co', now(), now())`,
      [listingId, provider, category],
    );
  });
  afterAll(async () => {
    await target?.dispose();
  });

  /** The real executor, with the search statement's results held until `letAllThrough()`. */
  const gatedExecutor = () => {
    const held: (() => void)[] = [];
    let searches = 0;
    const executor: SqlExecutor = {
      async query(text, params, name) {
        const result = await target.db.sql.query(text, params, name);
        if (name?.startsWith("listings_search")) {
          searches += 1;
          await new Promise<void>((resolve) => held.push(resolve));
        }

        return result as never;
      },
      exec: (script) => target.db.sql.exec(script),
    };
    /** Whether a query's result is held within `ms` (the test goes on either way). */
    const heldWithin = async (ms: number) => {
      const deadline = Date.now() + ms;
      while (held.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }

      return held.length > 0;
    };

    return {
      executor,
      searches: () => searches,
      /** Waits (up to 2 s) for the first request's query to have its result held back. */
      firstQueryHeld: () => heldWithin(2_000),
      /**
       * Once the requests that came meanwhile have reached their checks, lets every held query
       * through, and those started after it, one at a time.
       */
      async letAllThrough() {
        await new Promise((resolve) => setTimeout(resolve, 50));
        do {
          for (const resolve of held.splice(0)) {
            resolve();
          }
        } while (await heldWithin(200));
      },
    };
  };
  const search = { q: "marrow", categoryId: undefined, limit: 20, offset: 0 };
  const names = (page: { items: { name: string }[] }) => page.items.map((item) => item.name);

  it("shares the running query's answer when the stamp has not moved since it began", async () => {
    const gate = gatedExecutor();
    const listings = withListingSearchSharing(createListingRepository(gate.executor), {
      cache: createListingPageCache(10),
    });

    const first = listings.search(search, now);
    await gate.firstQueryHeld();
    const second = listings.search(search, now);
    await gate.letAllThrough();

    expect((await Promise.all([first, second])).map(names)).toEqual([["Marrow Soup"], ["Marrow Soup"]]);
    expect(gate.searches()).toBe(1);
  });

  it("queries again for a request that came after a catalog change committed, even with the same query in flight", async () => {
    const gate = gatedExecutor();
    const listings = withListingSearchSharing(createListingRepository(gate.executor), {
      cache: createListingPageCache(10),
    });

    const first = listings.search(search, now);
    await gate.firstQueryHeld();
    // The first query already has its answer (held back); this change commits after it began.
    await target.db.sql.query("UPDATE listings SET name = 'Marrow Broth' WHERE id = $1", [listingId]);
    const second = listings.search(search, now);
    await gate.letAllThrough();

    expect(names(await first)).toEqual(["Marrow Soup"]);
    expect(names(await second)).toEqual(["Marrow Broth"]);
    expect(gate.searches()).toBe(2);
  });

  it("without the cache, a request never takes the answer of a query that began before it came", async () => {
    const gate = gatedExecutor();
    const listings = withListingSearchSharing(createListingRepository(gate.executor));

    const first = listings.search(search, now);
    await gate.firstQueryHeld();
    await target.db.sql.query("UPDATE listings SET name = 'Marrow Stew' WHERE id = $1", [listingId]);
    const second = listings.search(search, now);
    const third = listings.search(search, now);
    await gate.letAllThrough();

    expect(names(await first)).toEqual(["Marrow Broth"]);
    // The two that came during the first query shared one query of their own, begun after it ended.
    expect((await Promise.all([second, third])).map(names)).toEqual([["Marrow Stew"], ["Marrow Stew"]]);
    expect(gate.searches()).toBe(2);
  });
});
