// Seeds the bench database with the marketplace at scale: 10,000 approved providers, 100,000
// listings (about 90% publicly visible, 5% featured) and 300,000 menu items, in batches through
// unnest() so the whole load is a few dozen statements. Ids are UUIDv7, as the service makes them.
import type pg from "pg";
import { v7 } from "uuid";

const words = [
  "ramen",
  "pizza",
  "taco",
  "sushi",
  "curry",
  "bagel",
  "noodle",
  "burger",
  "dumpling",
  "falafel",
  "kebab",
  "pho",
  "salad",
  "waffle",
  "crepe",
  "gelato",
  "espresso",
  "bakery",
  "bistro",
  "grill",
  "smoke",
  "garden",
  "harbor",
  "golden",
  "lotus",
  "maple",
  "olive",
  "saffron",
  "basil",
  "ember",
  "river",
  "stone",
  "copper",
  "velvet",
  "sunny",
  "urban",
  "rustic",
  "coastal",
  "spice",
  "honey",
  "clean",
  "repair",
  "plumbing",
  "massage",
  "yoga",
  "barber",
  "nails",
  "studio",
  "photo",
  "laundry",
  "tailor",
  "florist",
  "cobbler",
  "locksmith",
  "painter",
  "roofer",
  "mover",
  "tutor",
  "sourdough",
  "brisket",
  "tapas",
  "paella",
  "risotto",
  "gnocchi",
  "lasagna",
  "ravioli",
  "focaccia",
  "churros",
  "empanada",
  "arepa",
  "ceviche",
  "poke",
  "bibimbap",
  "kimchi",
  "bulgogi",
  "tempura",
  "udon",
  "soba",
  "teriyaki",
  "yakitori",
  "gyoza",
  "banh",
  "tofu",
  "tempeh",
  "hummus",
  "shawarma",
  "gyro",
  "souvlaki",
  "moussaka",
  "baklava",
  "pierogi",
  "goulash",
  "schnitzel",
  "pretzel",
  "strudel",
  "crumble",
  "scone",
  "muffin",
  "brownie",
  "cupcake",
  "donut",
  "eclair",
  "macaron",
  "tart",
  "pie",
  "fudge",
  "toffee",
  "nougat",
  "praline",
  "truffle",
  "cocoa",
  "matcha",
  "chai",
  "latte",
  "mocha",
  "smoothie",
  "juice",
  "kombucha",
  "lemonade",
  "cider",
  "stout",
  "porter",
  "lager",
  "pilsner",
  "vermouth",
  "sangria",
  "mojito",
  "spritz",
  "tonic",
  "harvest",
  "meadow",
  "orchard",
  "prairie",
  "summit",
  "valley",
  "canyon",
  "glacier",
  "island",
  "lagoon",
  "reef",
  "dune",
  "forest",
  "willow",
  "cedar",
  "birch",
  "aspen",
  "juniper",
  "ivy",
  "fern",
  "amber",
  "coral",
  "indigo",
  "scarlet",
  "crimson",
  "ivory",
  "onyx",
  "pearl",
  "ruby",
  "jade",
  "topaz",
  "silver",
  "bronze",
  "cobalt",
  "teal",
  "violet",
  "plum",
  "peach",
  "mango",
  "citrus",
  "berry",
  "fig",
  "date",
  "cherry",
  "apple",
  "pear",
  "quince",
  "lime",
  "lemon",
  "ginger",
  "garlic",
  "pepper",
  "chili",
  "paprika",
  "cumin",
  "clove",
  "nutmeg",
  "vanilla",
  "mint",
  "thyme",
  "rosemary",
  "sage",
  "dill",
  "fennel",
  "anise",
  "cardamom",
  "turmeric",
  "sesame",
  "walnut",
  "almond",
  "pecan",
  "cashew",
  "hazel",
  "peanut",
  "pistachio",
  "coconut",
  "oat",
  "barley",
  "rye",
  "quinoa",
  "millet",
];
const nouns = ["House", "Kitchen", "Corner", "Bar", "Shop", "Place", "Works", "Co", "Club", "Hall"];

// mulberry32: a small deterministic generator, so every bench run searches the same data.
let state = 42;
const random = () => {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;

  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

export type SeededMarketplace = { listingIds: string[]; visibleListingIds: string[]; categoryIds: string[] };

export const seedMarketplace = async (
  db: pg.Client,
  sizes = { providers: 10_000, listingsPerProvider: 10, itemsPerListing: 3 },
): Promise<SeededMarketplace> => {
  const { rows: categories } = await db.query<{ id: string }>(
    "SELECT id FROM categories WHERE active ORDER BY id",
  );
  const categoryIds = categories.map((row) => row.id);
  const now = Date.now();
  const listingIds: string[] = [];
  const visibleListingIds: string[] = [];
  const batch = 1_000;

  for (let start = 0; start < sizes.providers; start += batch) {
    const users: string[] = [];
    const providers: string[] = [];
    const names: string[] = [];
    for (let i = start; i < Math.min(start + batch, sizes.providers); i += 1) {
      users.push(v7());
      providers.push(v7());
      names.push(`${pick(words)} ${pick(words)} ${pick(nouns)} ${i}`.replace(/^./, (c) => c.toUpperCase()));
    }
    await db.query(
      `INSERT INTO users (id, email, username, display_name, password_hash, role, status, created_at, updated_at)
       SELECT u, 'bench-' || u || '@example.com', 'bench_' || replace(u::text, '-', ''), n, '', 'provider', 'active', now(), now()
         FROM unnest($1::uuid[], $2::text[]) AS t(u, n)`,
      [users, names],
    );
    await db.query(
      `INSERT INTO provider_profiles (id, user_id, display_name, approval_status, approved_at, created_at, updated_at)
       SELECT p, u, n, 'approved', now(), now(), now() FROM unnest($1::uuid[], $2::uuid[], $3::text[]) AS t(p, u, n)`,
      [providers, users, names],
    );

    const listing = {
      id: [] as string[],
      provider: [] as string[],
      category: [] as string[],
      name: [] as string[],
      description: [] as string[],
      status: [] as string[],
      expires: [] as string[],
      featured: [] as (string | null)[],
      updated: [] as string[],
      search: [] as string[],
    };
    for (const [index, providerId] of providers.entries()) {
      for (let j = 0; j < sizes.listingsPerProvider; j += 1) {
        const id = v7();
        const name = `${pick(words)} ${pick(nouns)}`.replace(/^./, (c) => c.toUpperCase());
        const description = `${pick(words)} ${pick(words)} and ${pick(words)}, made daily`;
        const roll = random();
        const status = roll < 0.05 ? "draft" : "active";
        const expired = roll >= 0.05 && roll < 0.1;
        const featured = random() < 0.05 ? new Date(now + 7 * 86_400_000).toISOString() : null;
        listing.id.push(id);
        listing.provider.push(providerId);
        listing.category.push(pick(categoryIds));
        listing.name.push(name);
        listing.description.push(description);
        listing.status.push(status);
        listing.expires.push(new Date(now + (expired ? -86_400_000 : 30 * 86_400_000)).toISOString());
        listing.featured.push(featured);
        listing.updated.push(new Date(now - Math.floor(random() * 90 * 86_400_000)).toISOString());
        listing.search.push(`${name} ${description} ${names[index]}`.toLowerCase());
        listingIds.push(id);
        if (status === "active" && !expired) {
          visibleListingIds.push(id);
        }
      }
    }
    await db.query(
      `INSERT INTO listings (id, provider_id, category_id, name, description, status, subscription_status,
                             subscription_expires_at, featured_until, provider_approved, search_text, created_at, updated_at)
       SELECT id, provider, category, name, description, status, 'active', expires, featured, true, search, updated, updated
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::timestamptz[],
                     $8::timestamptz[], $9::text[], $10::timestamptz[])
           AS t(id, provider, category, name, description, status, expires, featured, search, updated)`,
      [
        listing.id,
        listing.provider,
        listing.category,
        listing.name,
        listing.description,
        listing.status,
        listing.expires,
        listing.featured,
        listing.search,
        listing.updated,
      ],
    );

    const item = { id: [] as string[], listing: [] as string[], name: [] as string[], price: [] as number[] };
    for (const listingId of listing.id) {
      for (let k = 0; k < sizes.itemsPerListing; k += 1) {
        item.id.push(v7());
        item.listing.push(listingId);
        item.name.push(`${pick(words)} ${pick(["plate", "bowl", "box", "set", "hour"])}`);
        item.price.push(100 + Math.floor(random() * 5_000));
      }
    }
    await db.query(
      `INSERT INTO menu_items (id, listing_id, name, price_amount, currency, created_at, updated_at)
       SELECT id, listing, name, price, 'USD', now(), now()
         FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::bigint[]) AS t(id, listing, name, price)`,
      [item.id, item.listing, item.name, item.price],
    );
  }
  await db.query("VACUUM ANALYZE users, provider_profiles, listings, menu_items");

  return { listingIds, visibleListingIds, categoryIds };
};
