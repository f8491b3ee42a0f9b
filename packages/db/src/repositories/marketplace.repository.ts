import type {
  CatalogRepository,
  DashboardReadModel,
  ListingRepository,
  MenuItemRepository,
  ProviderRepository,
  SaleRepository,
} from "@agora/domain/marketplace/marketplace.ports";
import type {
  Listing,
  ListingStatus,
  MenuItem,
  Page,
  ProviderProfile,
  PublicListing,
} from "@agora/domain/marketplace/marketplace.types";
import type { Role } from "@agora/domain/shared/actor";
import { createSingleFlight } from "../single-flight";
import type { SqlExecutor } from "../sql";
import {
  listingSearchQuery,
  type MenuItemJson,
  menuItemsJson,
  type PublicListingJson,
  publicListingStatement,
} from "./listing-queries";

// ─── catalog ─────────────────────────────────────────────────────────────────

export const createCatalogRepository = (db: SqlExecutor): CatalogRepository => ({
  async listServices() {
    const { rows } = await db.query<{ id: string; name: string; description: string }>(
      "SELECT id, name, description FROM services WHERE active ORDER BY sort_order, name",
      [],
      "catalog_services",
    );

    return rows;
  },

  async listCategories() {
    const { rows } = await db.query<{ id: string; service_id: string; name: string }>(
      `SELECT c.id, c.service_id, c.name FROM categories c JOIN services s ON s.id = c.service_id
        WHERE c.active AND s.active ORDER BY s.sort_order, c.sort_order, c.name`,
      [],
      "catalog_categories",
    );

    return rows.map((row) => ({ id: row.id, serviceId: row.service_id, name: row.name }));
  },

  async findActiveCategory(id) {
    const { rows } = await db.query<{ id: string; service_id: string; name: string }>(
      `SELECT c.id, c.service_id, c.name FROM categories c JOIN services s ON s.id = c.service_id
        WHERE c.id = $1 AND c.active AND s.active`,
      [id],
    );
    const row = rows[0];

    return row ? { id: row.id, serviceId: row.service_id, name: row.name } : null;
  },
});

// ─── providers ───────────────────────────────────────────────────────────────

type ProviderRow = {
  id: string;
  user_id: string;
  display_name: string;
  bio: string;
  phone: string | null;
  approval_status: ProviderProfile["approvalStatus"];
  availability: ProviderProfile["availability"];
  created_at: Date;
};

const providerColumns = "id, user_id, display_name, bio, phone, approval_status, availability, created_at";

const toProvider = (row: ProviderRow): ProviderProfile => ({
  id: row.id,
  userId: row.user_id,
  displayName: row.display_name,
  bio: row.bio,
  phone: row.phone,
  approvalStatus: row.approval_status,
  availability: row.availability,
  createdAt: row.created_at,
});

/** The text the trigram index searches: name, description and provider name, lower-cased. */
const searchTextSql = (name: string, description: string, providerName: string) =>
  `lower(${name} || ' ' || ${description} || ' ' || ${providerName})`;

export const createProviderRepository = (db: SqlExecutor): ProviderRepository => ({
  async findById(id) {
    const { rows } = await db.query<ProviderRow>(
      `SELECT ${providerColumns} FROM provider_profiles WHERE id = $1`,
      [id],
    );

    return rows[0] ? toProvider(rows[0]) : null;
  },

  async findByUserId(userId) {
    const { rows } = await db.query<ProviderRow>(
      `SELECT ${providerColumns} FROM provider_profiles WHERE user_id = $1`,
      [userId],
      "providers_by_user",
    );

    return rows[0] ? toProvider(rows[0]) : null;
  },

  async create(profile, at) {
    const { rows } = await db.query(
      `INSERT INTO provider_profiles (id, user_id, display_name, bio, phone, approval_status, availability, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
       ON CONFLICT (user_id) DO NOTHING RETURNING id`,
      [
        profile.id,
        profile.userId,
        profile.displayName,
        profile.bio,
        profile.phone,
        profile.approvalStatus,
        profile.availability,
        at,
      ],
    );

    return rows.length === 1;
  },

  async update(id, changes, at) {
    const { rows } = await db.query<ProviderRow>(
      `UPDATE provider_profiles
          SET display_name = COALESCE($2, display_name),
              bio = COALESCE($3, bio),
              phone = CASE WHEN $5::boolean THEN $4 ELSE phone END,
              updated_at = $6
        WHERE id = $1 RETURNING ${providerColumns}`,
      [
        id,
        changes.displayName ?? null,
        changes.bio ?? null,
        changes.phone ?? null,
        changes.phone !== undefined,
        at,
      ],
    );
    const row = rows[0];
    if (row && changes.displayName !== undefined) {
      await db.query(
        `UPDATE listings SET search_text = ${searchTextSql("name", "description", "$2")} WHERE provider_id = $1`,
        [id, row.display_name],
      );
    }

    return row ? toProvider(row) : null;
  },

  async approve(id, at) {
    const { rows } = await db.query<ProviderRow>(
      `UPDATE provider_profiles SET approval_status = 'approved', approved_at = $2, updated_at = $2
        WHERE id = $1 AND approval_status = 'pending' RETURNING ${providerColumns}`,
      [id, at],
    );
    if (rows[0]) {
      await db.query("UPDATE listings SET provider_approved = true WHERE provider_id = $1", [id]);

      return toProvider(rows[0]);
    }
    const exists = await db.query("SELECT 1 FROM provider_profiles WHERE id = $1", [id]);

    return exists.rows.length === 1 ? "already" : null;
  },

  async promoteOwner(userId, at) {
    const { rows } = await db.query<{ role: Role }>("SELECT role FROM users WHERE id = $1 FOR UPDATE", [
      userId,
    ]);
    const before = rows[0]?.role ?? null;
    if (before === "member") {
      await db.query("UPDATE users SET role = 'provider', updated_at = $2 WHERE id = $1", [userId, at]);
    }

    return before;
  },
});

// ─── listings ────────────────────────────────────────────────────────────────

type MenuItemRow = Omit<MenuItemJson, "created_at" | "updated_at"> & { created_at: Date; updated_at: Date };

const toMenuItem = (item: MenuItemJson | MenuItemRow): MenuItem => ({
  id: item.id,
  listingId: item.listing_id,
  name: item.name,
  description: item.description,
  priceAmount: Number(item.price_amount),
  currency: item.currency,
  active: item.active,
  createdAt: new Date(item.created_at),
  updatedAt: new Date(item.updated_at),
});

type ListingRow = {
  id: string;
  provider_id: string;
  provider_name: string;
  category_id: string;
  category_name: string;
  name: string;
  description: string;
  status: ListingStatus;
  subscription_status: Listing["subscriptionStatus"];
  subscription_expires_at: Date | null;
  featured_until: Date | null;
  created_at: Date;
  updated_at: Date;
  menu_items: MenuItemJson[];
};

const listingSelect = `
  SELECT l.id, l.provider_id, p.display_name AS provider_name, l.category_id, c.name AS category_name,
         l.name, l.description, l.status, l.subscription_status, l.subscription_expires_at,
         l.featured_until, l.created_at, l.updated_at, ${menuItemsJson} AS menu_items
    FROM listings l
    JOIN provider_profiles p ON p.id = l.provider_id
    JOIN categories c ON c.id = l.category_id`;

const toListing = (row: ListingRow): Listing => ({
  id: row.id,
  providerId: row.provider_id,
  providerName: row.provider_name,
  categoryId: row.category_id,
  categoryName: row.category_name,
  name: row.name,
  description: row.description,
  status: row.status,
  subscriptionStatus: row.subscription_status,
  subscriptionExpiresAt: row.subscription_expires_at,
  featuredUntil: row.featured_until,
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
  updatedAt: new Date(row.updated_at),
  menuItems: row.menu_items.map(toMenuItem),
});

export const createListingRepository = (db: SqlExecutor): ListingRepository => {
  // Identical searches arriving while one runs share its result (public, anonymous, read-heavy).
  const coalesce = createSingleFlight<Page<PublicListing>>();

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

    async findById(id) {
      const { rows } = await db.query<ListingRow>(`${listingSelect} WHERE l.id = $1`, [id], "listings_by_id");

      return rows[0] ? toListing(rows[0]) : null;
    },

    async findPublic(id, now) {
      const { rows } = await db.query<{ listing: PublicListingJson }>(
        publicListingStatement.text,
        [now, id],
        publicListingStatement.name,
      );

      return rows[0] ? toPublicListing(rows[0].listing) : null;
    },

    search(search, now) {
      const query = listingSearchQuery(search, now);
      // Same statement and values, to the second: the visibility check uses `now`.
      const key = `${query.name}|${Math.floor(now.getTime() / 1000)}|${query.values.slice(1).join("|")}`;

      return coalesce(key, async () => {
        const { rows } = await db.query<{ total: number; items: PublicListingJson[] }>(
          query.text,
          query.values,
          query.name,
        );
        const row = rows[0];

        return { total: row?.total ?? 0, items: (row?.items ?? []).map(toPublicListing) };
      });
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

    async publishPaidDrafts(providerId, now) {
      const { rows } = await db.query<{ id: string }>(
        `UPDATE listings SET status = 'active', updated_at = $2
        WHERE provider_id = $1 AND status = 'draft' AND subscription_status = 'active' AND subscription_expires_at > $2
       RETURNING id`,
        [providerId, now],
      );

      return rows.map((row) => row.id);
    },

    async touch(id, at) {
      await db.query("UPDATE listings SET updated_at = $2 WHERE id = $1", [id, at]);
    },
  };
};

// ─── menu items ──────────────────────────────────────────────────────────────

const menuItemColumns =
  "m.id, m.listing_id, m.name, m.description, m.price_amount, m.currency, m.active, m.created_at, m.updated_at";

export const createMenuItemRepository = (db: SqlExecutor): MenuItemRepository => ({
  async create(item) {
    await db.query(
      `INSERT INTO menu_items (id, listing_id, name, description, price_amount, currency, active, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        item.id,
        item.listingId,
        item.name,
        item.description,
        item.priceAmount,
        item.currency,
        item.active,
        item.createdAt,
        item.updatedAt,
      ],
    );
  },

  async findById(id) {
    const { rows } = await db.query<MenuItemRow & { provider_id: string }>(
      `SELECT ${menuItemColumns}, l.provider_id FROM menu_items m JOIN listings l ON l.id = m.listing_id
        WHERE m.id = $1 AND m.deleted_at IS NULL`,
      [id],
    );
    const row = rows[0];

    return row ? { ...toMenuItem(row), providerId: row.provider_id } : null;
  },

  async update(id, changes, at) {
    const { rows } = await db.query<MenuItemRow>(
      `UPDATE menu_items m
          SET name = COALESCE($2, m.name),
              description = COALESCE($3, m.description),
              price_amount = COALESCE($4::bigint, m.price_amount),
              currency = COALESCE($5, m.currency),
              active = COALESCE($6::boolean, m.active),
              updated_at = $7
        WHERE m.id = $1 AND m.deleted_at IS NULL
       RETURNING ${menuItemColumns}`,
      [
        id,
        changes.name ?? null,
        changes.description ?? null,
        changes.priceAmount ?? null,
        changes.currency ?? null,
        changes.active ?? null,
        at,
      ],
    );

    return rows[0] ? toMenuItem(rows[0]) : null;
  },

  async markDeleted(id, at) {
    await db.query("UPDATE menu_items SET active = false, deleted_at = $2, updated_at = $2 WHERE id = $1", [
      id,
      at,
    ]);
  },
});

// ─── sales and dashboard ─────────────────────────────────────────────────────

export const createSaleRepository = (db: SqlExecutor): SaleRepository => ({
  async createManual(sale) {
    await db.query(
      `INSERT INTO sales (id, provider_id, source, amount, currency, description, customer_label, occurred_at, created_at)
       VALUES ($1, $2, 'manual', $3, $4, $5, $6, $7, $8)`,
      [
        sale.id,
        sale.providerId,
        sale.amount,
        sale.currency,
        sale.description,
        sale.customerLabel,
        sale.occurredAt,
        sale.createdAt,
      ],
    );
  },
});

const listingStatusKeys: ListingStatus[] = ["draft", "active", "inactive", "suspended"];

const orderStatusKeys = ["pending", "confirmed", "in_progress", "completed", "cancelled"];

/** One statement of aggregates over the provider's own rows (no rows are loaded). */
export const createDashboardReadModel = (db: SqlExecutor): DashboardReadModel => ({
  async forProvider(provider, now) {
    const since = new Date(now.getTime() - 30 * 24 * 3600_000);
    const { rows } = await db.query<{
      listings: Record<string, number> | null;
      orders: Record<string, number> | null;
      revenue: { currency: string; orders: number | string; manual: number | string }[] | null;
      pending_payments: number;
    }>(
      `SELECT
         (SELECT json_object_agg(status, n) FROM (
            SELECT status, count(*)::int AS n FROM listings WHERE provider_id = $1 GROUP BY status) s) AS listings,
         (SELECT json_object_agg(status, n) FROM (
            SELECT status, count(*)::int AS n FROM orders WHERE provider_id = $1 GROUP BY status) s) AS orders,
         (SELECT json_agg(json_build_object('currency', currency, 'orders', orders, 'manual', manual) ORDER BY currency)
            FROM (SELECT currency,
                         COALESCE(sum(amount) FILTER (WHERE source = 'order'), 0) AS orders,
                         COALESCE(sum(amount) FILTER (WHERE source = 'manual'), 0) AS manual
                    FROM sales WHERE provider_id = $1 AND occurred_at > $2 AND occurred_at <= $3
                   GROUP BY currency) r) AS revenue,
         (SELECT count(*)::int FROM payments pay JOIN orders o ON o.id = pay.order_id
           WHERE o.provider_id = $1 AND pay.status = 'payment_submitted') AS pending_payments`,
      [provider.id, since, now],
      "provider_dashboard",
    );
    const row = rows[0];
    const listingsByStatus = Object.fromEntries(
      listingStatusKeys.map((status) => [status, row?.listings?.[status] ?? 0]),
    ) as Record<ListingStatus, number>;

    return {
      providerId: provider.id,
      approvalStatus: provider.approvalStatus,
      listingsByStatus,
      ordersByStatus: Object.fromEntries(
        orderStatusKeys.map((status) => [status, row?.orders?.[status] ?? 0]),
      ),
      revenue30d: (row?.revenue ?? []).map((entry) => {
        const orders = Number(entry.orders);
        const manualSales = Number(entry.manual);

        return { currency: entry.currency, orders, manualSales, total: orders + manualSales };
      }),
      pendingPayments: row?.pending_payments ?? 0,
    };
  },
});
