-- Marketplace: provider profiles, listings (with their search text), menu items, sales.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE "provider_profiles" (
  "id" UUID NOT NULL,
  "user_id" UUID NOT NULL,
  "display_name" TEXT NOT NULL,
  "bio" TEXT NOT NULL DEFAULT '',
  "phone" TEXT,
  "approval_status" TEXT NOT NULL DEFAULT 'pending',
  "availability" TEXT NOT NULL DEFAULT 'offline',
  "approved_at" TIMESTAMPTZ(6),
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  "updated_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "provider_profiles_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "provider_profiles_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "provider_profiles_approval_status_check" CHECK ("approval_status" IN ('pending', 'approved')),
  CONSTRAINT "provider_profiles_availability_check" CHECK ("availability" IN ('offline', 'online'))
);
CREATE UNIQUE INDEX "provider_profiles_user_id_key" ON "provider_profiles" ("user_id");

CREATE TABLE "listings" (
  "id" UUID NOT NULL,
  "provider_id" UUID NOT NULL,
  "category_id" UUID NOT NULL,
  "name" TEXT NOT NULL,
  "description" TEXT NOT NULL DEFAULT '',
  "status" TEXT NOT NULL DEFAULT 'draft',
  "subscription_status" TEXT NOT NULL DEFAULT 'inactive',
  "subscription_expires_at" TIMESTAMPTZ(6),
  "featured_until" TIMESTAMPTZ(6),
  "provider_approved" BOOLEAN NOT NULL DEFAULT false,
  "search_text" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  "updated_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "listings_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "listings_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "provider_profiles" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "listings_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "listings_status_check" CHECK ("status" IN ('draft', 'active', 'inactive', 'suspended')),
  CONSTRAINT "listings_subscription_status_check" CHECK ("subscription_status" IN ('inactive', 'active'))
);
CREATE INDEX "listings_provider_id_idx" ON "listings" ("provider_id");
CREATE INDEX "listings_category_id_idx" ON "listings" ("category_id");

-- Public search (GET /listings). Partial indexes over the rows that can be public, whatever the
-- clock says (the expiry is compared at read time, so it is carried in INCLUDE to be checked
-- without visiting the table). Not expressible in schema.prisma; the drift check ignores them.
-- Most recently updated first (browse), and its per-category twin:
CREATE INDEX "listings_public_recent_idx" ON "listings" ("updated_at" DESC, "id" DESC)
  INCLUDE ("subscription_expires_at", "featured_until")
  WHERE "status" = 'active' AND "subscription_status" = 'active' AND "provider_approved";
CREATE INDEX "listings_public_category_recent_idx" ON "listings" ("category_id", "updated_at" DESC, "id" DESC)
  INCLUDE ("subscription_expires_at", "featured_until")
  WHERE "status" = 'active' AND "subscription_status" = 'active' AND "provider_approved";
-- Counting the public ones (the total of a browse page) from the index alone:
CREATE INDEX "listings_public_expiry_idx" ON "listings" ("subscription_expires_at")
  WHERE "status" = 'active' AND "subscription_status" = 'active' AND "provider_approved";
-- The few featured ones, found by their featured-until time:
CREATE INDEX "listings_public_featured_idx" ON "listings" ("featured_until")
  INCLUDE ("subscription_expires_at", "updated_at", "category_id")
  WHERE "status" = 'active' AND "subscription_status" = 'active' AND "provider_approved" AND "featured_until" IS NOT NULL;
-- Substring search over name, description and provider name (LIKE '%q%' on the lower-cased text):
CREATE INDEX "listings_public_search_trgm_idx" ON "listings" USING GIN ("search_text" gin_trgm_ops)
  WHERE "status" = 'active' AND "subscription_status" = 'active' AND "provider_approved";

CREATE TABLE "menu_items" (
  "id" UUID NOT NULL,
  "listing_id" UUID NOT NULL,
  "name" TEXT NOT NULL,
  "description" TEXT NOT NULL DEFAULT '',
  "price_amount" BIGINT NOT NULL,
  "currency" CHAR(3) NOT NULL,
  "active" BOOLEAN NOT NULL DEFAULT true,
  "deleted_at" TIMESTAMPTZ(6),
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  "updated_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "menu_items_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "menu_items_listing_id_fkey" FOREIGN KEY ("listing_id") REFERENCES "listings" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "menu_items_price_amount_check" CHECK ("price_amount" >= 0)
);
CREATE INDEX "menu_items_listing_id_idx" ON "menu_items" ("listing_id");

CREATE TABLE "sales" (
  "id" UUID NOT NULL,
  "provider_id" UUID NOT NULL,
  "source" TEXT NOT NULL,
  "order_id" UUID,
  "amount" BIGINT NOT NULL,
  "currency" CHAR(3) NOT NULL,
  "description" TEXT NOT NULL,
  "customer_label" TEXT,
  "occurred_at" TIMESTAMPTZ(6) NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "sales_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "sales_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "provider_profiles" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "sales_source_check" CHECK ("source" IN ('manual', 'order')),
  CONSTRAINT "sales_amount_check" CHECK ("amount" >= 0)
);
-- One primary sale per order: a retried or concurrent completion cannot add a second.
CREATE UNIQUE INDEX "sales_order_id_key" ON "sales" ("order_id");
CREATE INDEX "sales_provider_id_occurred_at_idx" ON "sales" ("provider_id", "occurred_at");
