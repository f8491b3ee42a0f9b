// The SQL of the public listing reads, kept free of runtime imports so the bench's raw reference
// server can run exactly these statements (Node loads this file directly, stripping the types).
import type { ListingSearch, PublicListing } from "@agora/domain/marketplace/marketplace.types";

/**
 * Listing `l` is publicly visible at `now` (an SQL expression, a parameter): the database's one
 * statement of the rule, `listing_publicly_visible` (migration 20261203000000_listing_visibility_rule;
 * its signature with the listing's hold, held_at, of 20261212000400_listing_held_rule; mirrored by
 * `listingPubliclyVisible` in the domain's marketplace policy). PostgreSQL inlines it, so the public
 * partial indexes, whose predicate is its clock-free part but the hold, serve these reads. Listing
 * reads and search use it, and the orderable menu item (orderableAt) through its function.
 */
export const visibleAt = (now: string) =>
  `listing_publicly_visible(l.status, l.subscription_status, l.provider_approved, l.owner_active,
    l.held_at, l.subscription_expires_at, ${now})`;

/** Public visibility at $1 (see visibleAt). */
export const visible = visibleAt("$1");

/**
 * Menu item `item` of listing `listing` (their aliases) can be ordered at `now` (an SQL expression,
 * a parameter): the database's one statement of the rule, `menu_item_orderable` (migration
 * 20261210010000_menu_item_orderable_rule; its signature with the item's and the listing's holds of
 * 20261212000400_listing_held_rule; mirrored by `menuItemOrderable` in the domain's marketplace
 * policy): the item on offer (onOffer), on a listing publicly visible at `now`. PostgreSQL inlines
 * it (and listing_publicly_visible in it). The public item read, the order's write and the media
 * read policy call it.
 */
export const orderableAt = (now: string, item = "m", listing = "l") =>
  `menu_item_orderable(${item}.active, ${item}.deleted_at, ${item}.held_at, ${listing}.status,
    ${listing}.subscription_status, ${listing}.provider_approved, ${listing}.owner_active, ${listing}.held_at,
    ${listing}.subscription_expires_at, ${now})`;

/**
 * Menu item `m` is on offer (active, not deleted, not held): the item's part of orderableAt,
 * `menu_item_on_offer` (mirrored by `menuItemOnOffer`). What the public listing reads list a
 * listing's items by: their WHERE holds listing `l` to `visible`, so an item listed is orderable.
 */
export const onOffer = "menu_item_on_offer(m.active, m.deleted_at, m.held_at)";

/**
 * What the owner's and staff's view lists a listing's items by: on offer but for a hold (a held
 * item stays in its owner's view until a moderator approves it).
 */
const onOfferButHeld = "menu_item_on_offer(m.active, m.deleted_at, NULL)";

/** An item on offer as the public sees it (the contract's). */
type ListedMenuItem = PublicListing["menu_items"][number];

/**
 * A public listing's own fields: every key of the contract's public listing (`ListingItem`,
 * packages/contracts/src/marketplace.ts) but its items, in the contract's order (the answer's), each
 * with the SQL that reads it from listing `l`, its provider `p` and its category `c`; `now` (an SQL
 * expression) decides `featured`. `satisfies` holds it to the contract: a field the contract gains
 * fails to compile here until it is read, and a key the contract lacks cannot be added.
 */
const publicListingFields = (now: string) =>
  ({
    id: "l.id",
    provider_id: "l.provider_id",
    provider_name: "p.display_name",
    name: "l.name",
    category_id: "l.category_id",
    category_name: "c.name",
    description: "l.description",
    featured: `COALESCE(l.featured_until > ${now}, false)`,
  }) satisfies Record<Exclude<keyof PublicListing, "menu_items">, string>;

/** An item's fields (the contract's, in its order), read from item `m`. */
const listedMenuItemFields = {
  id: "m.id",
  name: "m.name",
  description: "m.description",
  price_amount: "m.price_amount",
  currency: "m.currency",
} satisfies Record<keyof ListedMenuItem, string>;

/** `json_build_object` of `fields` (key, SQL), in their order, then the pairs of `more`. */
const jsonObject = (fields: Record<string, string>, more?: string) =>
  `json_build_object(${Object.entries(fields)
    .map(([key, sql]) => `'${key}', ${sql}`)
    .join(", ")}${more ? `, ${more}` : ""})`;

/**
 * The public listing's one JSON builder: listing `l` (joined to its provider `p` and category `c`)
 * as the contract's public listing, which the API answers as the database built it: its fields,
 * then its items on offer (onOffer: on a visible listing, the orderable ones; no timestamps to
 * format and parse again for every item of every listing of a page). `now` decides `featured`.
 * `more.item` adds pairs to each item's object and `more.listing` to the listing's (the listing
 * page's images), after the contract's. `more.heldItems`: the owner's and staff's view, which lists
 * the items a content filter holds too.
 */
export const publicListingJson = (
  now: string,
  more: { item?: string; listing?: string; heldItems?: boolean } = {},
) => {
  const items = `COALESCE((
    SELECT json_agg(${jsonObject(listedMenuItemFields, more.item)} ORDER BY m.created_at, m.id)
      FROM menu_items m WHERE m.listing_id = l.id AND ${more.heldItems ? onOfferButHeld : onOffer}), '[]'::json)`;

  return jsonObject({ ...publicListingFields(now), menu_items: items }, more.listing);
};

/** One visible listing by id ($1 now, $2 id), as JSON. */
export const publicListingStatement = {
  name: "listings_public_by_id",
  text: `SELECT ${publicListingJson("$1")} AS listing
           FROM listings l
           JOIN provider_profiles p ON p.id = l.provider_id
           JOIN categories c ON c.id = l.category_id
          WHERE l.id = $2 AND ${visible}`,
};

/**
 * The images on record `record` of a link table (`link`, keyed by `key`), in order, as a JSON array
 * of media_assets rows (assetFromJson in the media repository reads them): one probe of the link
 * table's primary key, so a record without images costs an empty index scan.
 */
const linkedMediaJson = (link: string, key: string, record: string) =>
  `COALESCE((SELECT json_agg(a ORDER BY r.position) FROM ${link} r
              JOIN media_assets a ON a.id = r.media_asset_id WHERE r.${key} = ${record}), '[]'::json)`;

/** A media_assets row as json_agg gives it: its timestamps are text. */
export type MediaAssetJson = Record<string, unknown>;

export type PublicListingPageJson = Omit<PublicListing, "menu_items"> & {
  menu_items: Array<ListedMenuItem & { media: MediaAssetJson[] }>;
  media: MediaAssetJson[];
  provider_media: MediaAssetJson[];
};

/**
 * The listing page ($1 now, $2 id): a visible listing as publicListingStatement reads it, with its
 * gallery (`media`), each orderable item's image (`menu_items[].media`) and its provider's logo
 * (`provider_media`), in one statement and one round trip (also run by the bench's raw reference).
 */
export const publicListingPageStatement = {
  name: "listings_public_page_by_id",
  text: `SELECT ${publicListingJson("$1", {
    item: `'media', ${linkedMediaJson("menu_item_media", "menu_item_id", "m.id")}`,
    listing: `'media', ${linkedMediaJson("listing_media", "listing_id", "l.id")},
           'provider_media', ${linkedMediaJson("provider_media", "provider_id", "l.provider_id")}`,
  })} AS listing
           FROM listings l
           JOIN provider_profiles p ON p.id = l.provider_id
           JOIN categories c ON c.id = l.category_id
          WHERE l.id = $2 AND ${visible}`,
};

/** The text the trigram index searches: name, description and provider name, lower-cased. */
export const searchTextSql = (name: string, description: string, providerName: string) =>
  `lower(${name} || ' ' || ${description} || ' ' || ${providerName})`;

/** LIKE pattern for a substring search over the lower-cased search text. */
export const containsPattern = (q: string) =>
  `%${q.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

export type SearchQuery = { name: string; text: string; values: unknown[] };

const pageJson = `COALESCE((
    SELECT json_agg(${publicListingJson("$1")} ORDER BY page.featured DESC, page.updated_at DESC, page.id DESC)
      FROM page
      JOIN listings l ON l.id = page.id
      JOIN provider_profiles p ON p.id = l.provider_id
      JOIN categories c ON c.id = l.category_id), '[]'::json) AS items`;

/**
 * The public listings at $1 (of category $5): those expiring after today (UTC) summed from the
 * per-day counters the trigger keeps, plus today's still unexpired ones counted from the expiry
 * index (a few at most), instead of every public listing counted from an index.
 */
const publicTotal = (hasCategory: boolean) => {
  const today = "($1::timestamptz AT TIME ZONE 'UTC')::date";

  return `(SELECT COALESCE(sum(c.listings), 0)::int FROM listing_public_counts c
            WHERE c.expires_on > ${today}${hasCategory ? " AND c.category_id = $5::uuid" : ""})
        + (SELECT count(*)::int FROM listings l
            WHERE ${visible}${hasCategory ? " AND l.category_id = $5::uuid" : ""}
              AND l.subscription_expires_at < ((${today} + 1)::timestamp AT TIME ZONE 'UTC'))`;
};

/**
 * The catalog's change stamp (see catalog_stamp in the migrations): read alone to check a cached
 * page, and inside each listing statement, in its own snapshot, so a page cached with it is the
 * catalog as of that stamp.
 */
export const catalogStampStatement = {
  name: "catalog_stamp",
  text: "SELECT version FROM catalog_stamp WHERE id = 1",
};

const catalogStamp = `(${catalogStampStatement.text}) AS stamp`;

/**
 * Browse (no q): featured and other listings are two index-ordered branches, each cut at
 * offset + limit, then merged and paged; the total comes from the per-day counters (publicTotal).
 * valid_until: the first moment time alone changes the answer (a public listing of the filter
 * expires or stops being featured), from the expiry and featured indexes.
 * Parameters: $1 now, $2 offset + limit, $3 offset, $4 limit, [$5 category].
 */
const browseStatement = (hasCategory: boolean) => {
  const filters = hasCategory ? " AND l.category_id = $5::uuid" : "";
  const branch = (featured: boolean) => `(
      SELECT l.id, l.updated_at, ${featured} AS featured
        FROM listings l
       WHERE ${visible}${filters}
         AND ${featured ? "l.featured_until IS NOT NULL AND l.featured_until > $1" : "(l.featured_until IS NULL OR l.featured_until <= $1)"}
       ORDER BY l.updated_at DESC, l.id DESC
       LIMIT $2)`;

  return {
    name: `listings_browse${hasCategory ? "_category" : ""}`,
    text: `
      WITH page AS (
        ${branch(true)}
        UNION ALL
        ${branch(false)}
        ORDER BY featured DESC, updated_at DESC, id DESC
        OFFSET $3 LIMIT $4
      )
      SELECT ${catalogStamp}, LEAST(
          (SELECT min(l.subscription_expires_at) FROM listings l WHERE ${visible}${filters}),
          (SELECT min(l.featured_until) FROM listings l
            WHERE ${visible}${filters} AND l.featured_until IS NOT NULL AND l.featured_until > $1)
        ) AS valid_until,
        ${publicTotal(hasCategory)} AS total, ${pageJson}`,
  };
};

/**
 * Search (q): the trigram index finds the matches once (materialized), and the total, the page
 * (featured first, then most recent, then id) and valid_until (the first expiry or featured end
 * among the matches) come from that set.
 * Parameters: $1 now, $2 offset, $3 limit, $4 pattern, [$5 category].
 */
const queryStatement = (hasCategory: boolean) => {
  const filters = hasCategory ? " AND l.category_id = $5::uuid" : "";

  return {
    name: `listings_search${hasCategory ? "_category" : ""}`,
    text: `
      WITH matched AS MATERIALIZED (
        SELECT l.id, l.updated_at, COALESCE(l.featured_until > $1, false) AS featured,
               l.subscription_expires_at, l.featured_until
          FROM listings l
         WHERE ${visible} AND l.search_text LIKE $4${filters}
      ), figures AS (
        SELECT count(*)::int AS total,
               LEAST(min(subscription_expires_at), min(featured_until) FILTER (WHERE featured)) AS valid_until
          FROM matched
      ), page AS (
        SELECT id, updated_at, featured FROM matched
         ORDER BY featured DESC, updated_at DESC, id DESC
        OFFSET $2 LIMIT $3
      )
      SELECT ${catalogStamp}, figures.valid_until, figures.total, ${pageJson} FROM figures`,
  };
};

const statements = {
  browse: browseStatement(false),
  browseCategory: browseStatement(true),
  query: queryStatement(false),
  queryCategory: queryStatement(true),
};

/**
 * The statement and parameters of a search (also run as-is by the bench's raw reference). One
 * named statement per filter combination, so each keeps its own index-friendly plan.
 */
export const listingSearchQuery = (
  search: Omit<ListingSearch, "categoryId"> & { categoryId: string | null | undefined },
  now: Date,
): SearchQuery => {
  const q = search.q?.trim() ?? "";
  const category = search.categoryId;
  if (q !== "") {
    const statement = category === undefined ? statements.query : statements.queryCategory;
    const values: unknown[] = [now, search.offset, search.limit, containsPattern(q)];

    return { ...statement, values: category === undefined ? values : [...values, category] };
  }
  const statement = category === undefined ? statements.browse : statements.browseCategory;
  const values: unknown[] = [now, search.offset + search.limit, search.offset, search.limit];

  return { ...statement, values: category === undefined ? values : [...values, category] };
};
