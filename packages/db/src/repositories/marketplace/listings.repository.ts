import type { ListingRepository } from "@agora/domain/marketplace/marketplace.ports";
import type { Listing, ListingStatus, PublicListing } from "@agora/domain/marketplace/marketplace.types";
import type { Page } from "@agora/domain/shared/page";
import { createFilters, selectPage, substringPattern } from "../../filters";
import type { Listing as ListingModel } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import { createBatchedRead, type ListingPageCache } from "../../listing-cache";
import type { RowOf } from "../../rows";
import { createSingleFlight } from "../../single-flight";
import type { SqlExecutor } from "../../sql";
import {
  catalogStampStatement,
  listingSearchQuery,
  type MenuItemJson,
  menuItemsJson,
  type PublicListingJson,
  publicListingStatement,
  searchTextSql,
} from "./listing-queries";
import { toMenuItem } from "./menu-items.repository";

type ListingRow = Pick<
  RowOf<ListingModel>,
  | "id"
  | "provider_id"
  | "category_id"
  | "name"
  | "description"
  | "status"
  | "subscription_status"
  | "subscription_expires_at"
  | "featured_until"
  | "created_at"
  | "updated_at"
> & { provider_name: string; category_name: string; featured: boolean; menu_items: MenuItemJson[] };

/** The owner view's columns; `now` is the placeholder of the time `featured` is decided at. */
const listingColumns = (now: string) => `
  l.id, l.provider_id, p.display_name AS provider_name, l.category_id, c.name AS category_name,
  l.name, l.description, l.status, l.subscription_status, l.subscription_expires_at,
  l.featured_until, COALESCE(l.featured_until > ${now}, false) AS featured, l.created_at, l.updated_at,
  ${menuItemsJson} AS menu_items`;

const listingFrom = `listings l
    JOIN provider_profiles p ON p.id = l.provider_id
    JOIN categories c ON c.id = l.category_id`;

/** The owner view by a condition on `l` ($1 onwards), `now` as $2. */
const listingSelect = `SELECT ${listingColumns("$2")} FROM ${listingFrom}`;

const toListing = (row: ListingRow): Listing => ({
  id: row.id,
  providerId: row.provider_id,
  providerName: row.provider_name,
  categoryId: row.category_id,
  categoryName: row.category_name,
  name: row.name,
  description: row.description,
  status: row.status as ListingStatus,
  subscriptionStatus: row.subscription_status as Listing["subscriptionStatus"],
  subscriptionExpiresAt: row.subscription_expires_at,
  featuredUntil: row.featured_until,
  featured: row.featured,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  menuItems: row.menu_items.map(toMenuItem),
});

const toPublicListing = (row: PublicListingJson): PublicListing => ({
  id: row.id,
  providerId: row.provider_id,
  providerName: row.provider_name,
  categoryId: row.category_id,
  categoryName: row.category_name,
  name: row.name,
  description: row.description,
  featured: row.featured,
  menuItems: row.menu_items.map((item) => ({
    id: item.id,
    name: item.name,
    description: item.description,
    priceAmount: Number(item.price_amount),
    currency: item.currency,
  })),
});

export type ListingRepositoryOptions = {
  /**
   * Identical public searches that arrive while one runs share the next query (default; see
   * createSingleFlight). False only to benchmark the queries themselves (LISTINGS_COALESCE=off).
   */
  coalesce?: boolean;
  /**
   * Public pages kept and served again while the catalog stamp and time leave them the answer
   * (listing-cache.ts); none without it.
   */
  cache?: ListingPageCache<Page<PublicListing>> | undefined;
};

type SearchRow = {
  stamp: string | number | bigint | null;
  valid_until: Date | string | null;
  total: number;
  items: PublicListingJson[];
};
type ReadPage = {
  page: Page<PublicListing>;
  stamp: string | undefined;
  readAt: Date;
  validUntil: Date | null;
};

/** Whether a page read at `read.stamp` is the answer for a request that read `stamp` at `now`. */
const stillTheAnswer = (read: ReadPage, stamp: string, now: Date) =>
  read.stamp === stamp &&
  read.readAt.getTime() <= now.getTime() &&
  (read.validUntil === null || now.getTime() < read.validUntil.getTime());

export const createListingRepository = (
  db: SqlExecutor,
  options: ListingRepositoryOptions = {},
): ListingRepository => {
  // Identical searches arriving while one runs share the next one, which starts when it ends: none
  // is answered by a query that began before it arrived (public, anonymous, read-heavy), unless
  // the catalog stamp shows that query's answer is still the answer (below).
  const coalesce = options.coalesce === false ? undefined : createSingleFlight<ReadPage>();
  const cache = options.cache;
  // Per request, but one read at a time for all of them (each still one that began after it asked).
  const readStamp = createBatchedRead(async () => {
    const { rows } = await db.query<{ version: string | number | bigint }>(
      catalogStampStatement.text,
      [],
      catalogStampStatement.name,
    );

    return rows[0] === undefined ? undefined : String(rows[0].version);
  });

  return {
    async create(listing, at) {
      await db.query(
        `INSERT INTO listings (id, provider_id, category_id, name, description, status, subscription_status,
                             provider_approved, search_text, created_at, updated_at)
       SELECT $1, $2, $3, $4, $5, 'draft', 'inactive', p.approval_status = 'approved',
              ${searchTextSql("$4", "$5", "p.display_name")}, $6, $6
         FROM provider_profiles p WHERE p.id = $2`,
        [listing.id, listing.providerId, listing.categoryId, listing.name, listing.description, at],
      );
    },

    async findById(id, now) {
      const { rows } = await db.query<ListingRow>(
        `${listingSelect} WHERE l.id = $1`,
        [idParam(id), now],
        "listings_by_id",
      );

      return rows[0] ? toListing(rows[0]) : null;
    },

    async findPage(filter, page, now) {
      const filters = createFilters();
      // search_text is lower-cased: a lower-cased pattern lets LIKE use its trigram index.
      filters.where(
        filter.q !== undefined &&
          `l.search_text LIKE ${filters.param(substringPattern(filter.q.toLowerCase()))}`,
      );
      filters.where(filter.status !== undefined && `l.status = ${filters.param(filter.status)}`);
      const { rows, total } = await selectPage<ListingRow>(
        db,
        {
          select: (param) => listingColumns(param(now)),
          from: listingFrom,
          order: { table: "l", direction: "DESC" },
          filters,
          search: filter.q !== undefined,
        },
        page,
      );

      return { items: rows.map(toListing), total };
    },

    async listByProvider(providerId, now) {
      const { rows } = await db.query<ListingRow>(
        `${listingSelect} WHERE l.provider_id = $1 ORDER BY l.created_at, l.id`,
        [idParam(providerId), now],
      );

      return rows.map(toListing);
    },

    async findPublic(id, now) {
      const { rows } = await db.query<{ listing: PublicListingJson }>(
        publicListingStatement.text,
        [now, idParam(id)],
        publicListingStatement.name,
      );

      return rows[0] ? toPublicListing(rows[0].listing) : null;
    },

    async search(search, now) {
      // A category id that is not a UUID names no category: bound as NULL, it matches nothing.
      const query = listingSearchQuery(
        search.categoryId === undefined ? search : { ...search, categoryId: idParam(search.categoryId) },
        now,
      );
      // The statement and its values but `now` (the cache checks time against the page's span).
      const key = `${query.name}|${JSON.stringify(query.values.slice(1))}`;
      // Same statement and values, to the second: the visibility check uses `now`.
      const flightKey = `${key}|${Math.floor(now.getTime() / 1000)}`;
      if (cache) {
        const stamp = await readStamp();
        const cached = stamp === undefined ? undefined : cache.get(key, stamp, now);
        if (cached) {
          return cached;
        }
        // The same query already running began before this request came; its answer is this
        // request's too when its statement read the stamp this request read since: no change to the
        // catalog committed in between (as for a cached page).
        const running = stamp === undefined ? undefined : coalesce?.running(flightKey);
        const shared = await running?.catch(() => undefined);
        if (shared !== undefined && stamp !== undefined && stillTheAnswer(shared, stamp, now)) {
          return shared.page;
        }
      }
      const work = async (): Promise<ReadPage> => {
        const { rows } = await db.query<SearchRow>(query.text, query.values, query.name);
        const row = rows[0];

        return {
          page: { total: row?.total ?? 0, items: (row?.items ?? []).map(toPublicListing) },
          stamp: row?.stamp == null ? undefined : String(row.stamp),
          readAt: now,
          validUntil: row?.valid_until == null ? null : new Date(row.valid_until),
        };
      };
      const read = await (coalesce ? coalesce(flightKey, work) : work());
      // Kept with the stamp and `now` of the statement that read it (requests sharing a query share
      // the `now` of the first of them, within the same second).
      if (cache && read.stamp !== undefined) {
        cache.set(key, read.page, read.stamp, read.readAt, read.validUntil);
      }

      return read.page;
    },

    async update(id, changes, at) {
      await db.query(
        `UPDATE listings
          SET name = COALESCE($2, name),
              description = COALESCE($3, description),
              category_id = COALESCE($4::uuid, category_id),
              search_text = ${searchTextSql("COALESCE($2, name)", "COALESCE($3, description)", "(SELECT display_name FROM provider_profiles WHERE id = listings.provider_id)")},
              updated_at = $5
        WHERE id = $1`,
        [id, changes.name ?? null, changes.description ?? null, changes.categoryId ?? null, at],
      );
    },

    async setStatus(id, status, at) {
      await db.query("UPDATE listings SET status = $2, updated_at = $3 WHERE id = $1", [id, status, at]);
    },

    async setSubscription(id, expiresAt, at) {
      await db.query(
        "UPDATE listings SET subscription_status = 'active', subscription_expires_at = $2, updated_at = $3 WHERE id = $1",
        [id, expiresAt, at],
      );
    },

    async touch(id, at) {
      await db.query("UPDATE listings SET updated_at = $2 WHERE id = $1", [id, at]);
    },

    async markProviderApproved(providerId) {
      await db.query("UPDATE listings SET provider_approved = true WHERE provider_id = $1", [
        idParam(providerId),
      ]);
    },

    async markProviderWithdrawn(providerId) {
      await db.query("UPDATE listings SET provider_approved = false WHERE provider_id = $1", [
        idParam(providerId),
      ]);
    },

    async setProviderName(providerId, displayName) {
      await db.query(
        `UPDATE listings SET search_text = ${searchTextSql("name", "description", "$2")} WHERE provider_id = $1`,
        [idParam(providerId), displayName],
      );
    },
  };
};
