import type { Page } from "@agora/domain/common/page";
import type { ListingRepository } from "@agora/domain/marketplace/marketplace.ports";
import type {
  Listing,
  ListingSearch,
  ListingStatus,
  PublicListing,
  PublicListingPage,
} from "@agora/domain/marketplace/marketplace.types";
import type { MediaAsset } from "@agora/domain/media/media.types";
import { createFilters, selectPage, substringPattern } from "../../filters";
import type { Listing as ListingModel } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";
import { assetFromJson } from "../media/media-assets.repository";
import {
  catalogStampStatement,
  listingSearchQuery,
  type PublicListingPageJson,
  publicListingJson,
  publicListingPageStatement,
  publicListingStatement,
  searchTextSql,
} from "./listing-queries";

type ListingRow = Pick<
  RowOf<ListingModel>,
  | "id"
  | "provider_id"
  | "status"
  | "subscription_status"
  | "subscription_expires_at"
  | "created_at"
  | "updated_at"
> & { public: PublicListing };

/**
 * The owner view's columns: the listing's state, and its public fields as a public read builds them
 * (publicListingJson); `now` is the placeholder of the time `featured` is decided at.
 */
const listingColumns = (now: string) => `
  l.id, l.provider_id, l.status, l.subscription_status, l.subscription_expires_at, l.created_at,
  l.updated_at, ${publicListingJson(now, { heldItems: true })} AS public`;

const listingFrom = `listings l
    JOIN provider_profiles p ON p.id = l.provider_id
    JOIN categories c ON c.id = l.category_id`;

/** The owner view by a condition on `l` ($1 onwards), `now` as $2. */
const listingSelect = `SELECT ${listingColumns("$2")} FROM ${listingFrom}`;

const toListing = (row: ListingRow): Listing => ({
  id: row.id,
  providerId: row.provider_id,
  status: row.status as ListingStatus,
  subscriptionStatus: row.subscription_status as Listing["subscriptionStatus"],
  subscriptionExpiresAt: row.subscription_expires_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  public: row.public,
});

/**
 * The listing page's row: the listing as the database built it (the public listing and its items,
 * each object taken once without its images, so no asset row reaches an answer), its images beside it.
 */
const toPublicListingPage = ({
  media,
  provider_media,
  ...listing
}: PublicListingPageJson): PublicListingPage => {
  const menuItemMedia = new Map<string, MediaAsset[]>();
  const items = listing.menu_items.map(({ media: images, ...item }) => {
    if (images.length > 0) {
      menuItemMedia.set(item.id, images.map(assetFromJson));
    }

    return item;
  });

  return {
    // `listing` is this read's own copy: its items are replaced in place (their key keeps its place).
    listing: Object.assign(listing, { menu_items: items }),
    media: media.map(assetFromJson),
    menuItemMedia,
    providerMedia: provider_media.map(assetFromJson),
  };
};

type SearchRow = {
  stamp: string | number | bigint | null;
  valid_until: Date | string | null;
  total: number;
  /** The page as the database built it (publicListingJson): answered as it is. */
  items: PublicListing[];
};

/** A public page with what makes it the answer (see listing-cache.ts): the stamp and span it holds for. */
export type StampedListingPage = {
  page: Page<PublicListing>;
  /** The catalog stamp the statement read; undefined when the database has none. */
  stamp: string | undefined;
  /** The `now` the statement decided visibility at. */
  readAt: Date;
  /** The first moment time alone changes the answer; null: none. */
  validUntil: Date | null;
};

/** One public search, its statement built but not run. */
export type PreparedListingSearch = {
  /** The statement and its values but `now`: equal keys, equal answers at the same stamp and time. */
  key: string;
  /** Runs the statement. */
  read(): Promise<StampedListingPage>;
};

/**
 * The plain listing repository, one query per call, and the two reads a wrapper that shares or
 * keeps public pages needs (cached-listings.ts): a search's statement with its key, and the stamp.
 */
export type PlainListingRepository = ListingRepository & {
  prepareSearch(search: ListingSearch, now: Date): PreparedListingSearch;
  /** The catalog stamp now (catalog_stamp); undefined when the database has none. */
  readCatalogStamp(): Promise<string | undefined>;
};

export const createListingRepository = (db: SqlExecutor): PlainListingRepository => {
  const prepareSearch = (search: ListingSearch, now: Date): PreparedListingSearch => {
    // A category id that is not a UUID names no category: bound as NULL, it matches nothing.
    const query = listingSearchQuery(
      search.categoryId === undefined ? search : { ...search, categoryId: idParam(search.categoryId) },
      now,
    );

    return {
      key: `${query.name}|${JSON.stringify(query.values.slice(1))}`,
      async read() {
        const { rows } = await db.query<SearchRow>(query.text, query.values, query.name);
        const row = rows[0];

        return {
          page: { total: row?.total ?? 0, items: row?.items ?? [] },
          stamp: row?.stamp == null ? undefined : String(row.stamp),
          readAt: now,
          validUntil: row?.valid_until == null ? null : new Date(row.valid_until),
        };
      },
    };
  };

  return {
    prepareSearch,

    async readCatalogStamp() {
      const { rows } = await db.query<{ version: string | number | bigint }>(
        catalogStampStatement.text,
        [],
        catalogStampStatement.name,
      );

      return rows[0] === undefined ? undefined : String(rows[0].version);
    },

    async create(listing, at) {
      await db.query(
        `INSERT INTO listings (id, provider_id, category_id, name, description, status, subscription_status,
                             provider_approved, search_text, created_at, updated_at, held_at)
       SELECT $1, $2, $3, $4, $5, 'draft', 'inactive', p.approval_status = 'approved',
              ${searchTextSql("$4", "$5", "p.display_name")}, $6, $6, $7
         FROM provider_profiles p WHERE p.id = $2`,
        [
          listing.id,
          listing.providerId,
          listing.categoryId,
          listing.name,
          listing.description,
          at,
          listing.heldAt ?? null,
        ],
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
      const { rows } = await db.query<{ listing: PublicListing }>(
        publicListingStatement.text,
        [now, idParam(id)],
        publicListingStatement.name,
      );

      return rows[0]?.listing ?? null;
    },

    async findPublicPage(id, now) {
      const { rows } = await db.query<{ listing: PublicListingPageJson }>(
        publicListingPageStatement.text,
        [now, idParam(id)],
        publicListingPageStatement.name,
      );

      return rows[0] ? toPublicListingPage(rows[0].listing) : null;
    },

    async search(search, now) {
      return (await prepareSearch(search, now).read()).page;
    },

    async update(id, changes, at) {
      await db.query(
        `UPDATE listings
          SET name = COALESCE($2, name),
              description = COALESCE($3, description),
              category_id = COALESCE($4::uuid, category_id),
              search_text = ${searchTextSql("COALESCE($2, name)", "COALESCE($3, description)", "(SELECT display_name FROM provider_profiles WHERE id = listings.provider_id)")},
              updated_at = $5,
              held_at = CASE WHEN $6::boolean THEN COALESCE(held_at, $5) ELSE held_at END
        WHERE id = $1`,
        [
          id,
          changes.name ?? null,
          changes.description ?? null,
          changes.categoryId ?? null,
          at,
          changes.hold === true,
        ],
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

    async setOwnerActive(userId, active) {
      await db.query(
        `UPDATE listings l SET owner_active = $2
           FROM provider_profiles p
          WHERE p.user_id = $1 AND l.provider_id = p.id AND l.owner_active IS DISTINCT FROM $2`,
        [idParam(userId), active],
      );
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
