-- agora:no-transaction
-- The public partial indexes of 20261128000000_abuse_resistance and 20261130000000_listing_browse,
-- with the same names, columns and purposes, their predicate now the rule's clock-free function
-- listing_public_if_unexpired(…) of 20261203000000_listing_visibility_rule (a query calling
-- listing_publicly_visible(…) is proved to match them: PostgreSQL inlines both functions).
--
-- The first line runs this migration outside a transaction, one statement at a time
-- (packages/db/src/migrator.ts), so each index is built and dropped CONCURRENTLY: reads and writes
-- of listings go on throughout. Each index in four steps, each safe to run again after a run that
-- failed part-way (the migrator then runs the whole file again):
--   1. drop the replacement a failed run may have left (an interrupted CREATE INDEX CONCURRENTLY
--      leaves an INVALID index, which IF NOT EXISTS alone would keep);
--   2. build the replacement under the old name + "_next";
--   3. drop the old index (IF EXISTS: a failed run may have dropped it already);
--   4. give the replacement the old name, which the code, the tests and the docs use.
-- A run that fails between steps 3 and 4 leaves the replacement alone under its "_next" name; the
-- rerun builds it again (reads scan the table meanwhile), as it rebuilds the indexes a failed run
-- had finished: a rerun is slower, never wrong.
--
-- No lock timeout for these statements (the migrator sets its own again for the next migration).
-- A CONCURRENTLY build waits, through the lock manager, for the transactions older than it (any
-- of the database's, a long export or a pg_dump too), and a CONCURRENTLY drop for those using
-- listings: the migrator's lock_timeout would fail them part-way, leaving an INVALID index, while
-- the lock they hold meanwhile (SHARE UPDATE EXCLUSIVE on listings; on the index alone for the
-- rename) holds up no reader or writer, only other DDL and VACUUM of listings.
SET lock_timeout = 0;

-- Most recently updated first (browse), and its per-category twin:
DROP INDEX CONCURRENTLY IF EXISTS "listings_public_recent_idx_next";
CREATE INDEX CONCURRENTLY IF NOT EXISTS "listings_public_recent_idx_next" ON "listings" ("updated_at" DESC, "id" DESC)
  INCLUDE ("subscription_expires_at", "featured_until")
  WHERE listing_public_if_unexpired("status", "subscription_status", "provider_approved", "owner_active");
DROP INDEX CONCURRENTLY IF EXISTS "listings_public_recent_idx";
ALTER INDEX "listings_public_recent_idx_next" RENAME TO "listings_public_recent_idx";
DROP INDEX CONCURRENTLY IF EXISTS "listings_public_category_recent_idx_next";
CREATE INDEX CONCURRENTLY IF NOT EXISTS "listings_public_category_recent_idx_next" ON "listings" ("category_id", "updated_at" DESC, "id" DESC)
  INCLUDE ("subscription_expires_at", "featured_until")
  WHERE listing_public_if_unexpired("status", "subscription_status", "provider_approved", "owner_active");
DROP INDEX CONCURRENTLY IF EXISTS "listings_public_category_recent_idx";
ALTER INDEX "listings_public_category_recent_idx_next" RENAME TO "listings_public_category_recent_idx";

-- Today's expiring public listings, by category (the rest of a browse total), and the first expiry:
DROP INDEX CONCURRENTLY IF EXISTS "listings_public_expiry_idx_next";
CREATE INDEX CONCURRENTLY IF NOT EXISTS "listings_public_expiry_idx_next" ON "listings" ("subscription_expires_at") INCLUDE ("category_id")
  WHERE listing_public_if_unexpired("status", "subscription_status", "provider_approved", "owner_active");
DROP INDEX CONCURRENTLY IF EXISTS "listings_public_expiry_idx";
ALTER INDEX "listings_public_expiry_idx_next" RENAME TO "listings_public_expiry_idx";

-- The few featured ones, found by their featured-until time:
DROP INDEX CONCURRENTLY IF EXISTS "listings_public_featured_idx_next";
CREATE INDEX CONCURRENTLY IF NOT EXISTS "listings_public_featured_idx_next" ON "listings" ("featured_until")
  INCLUDE ("subscription_expires_at", "updated_at", "category_id")
  WHERE listing_public_if_unexpired("status", "subscription_status", "provider_approved", "owner_active")
    AND "featured_until" IS NOT NULL;
DROP INDEX CONCURRENTLY IF EXISTS "listings_public_featured_idx";
ALTER INDEX "listings_public_featured_idx_next" RENAME TO "listings_public_featured_idx";

-- The featured branch of a browse page, in page order over the featured ones only, and its
-- per-category twin:
DROP INDEX CONCURRENTLY IF EXISTS "listings_public_featured_recent_idx_next";
CREATE INDEX CONCURRENTLY IF NOT EXISTS "listings_public_featured_recent_idx_next" ON "listings" ("updated_at" DESC, "id" DESC)
  INCLUDE ("subscription_expires_at", "featured_until")
  WHERE listing_public_if_unexpired("status", "subscription_status", "provider_approved", "owner_active")
    AND "featured_until" IS NOT NULL;
DROP INDEX CONCURRENTLY IF EXISTS "listings_public_featured_recent_idx";
ALTER INDEX "listings_public_featured_recent_idx_next" RENAME TO "listings_public_featured_recent_idx";
DROP INDEX CONCURRENTLY IF EXISTS "listings_public_featured_category_recent_idx_next";
CREATE INDEX CONCURRENTLY IF NOT EXISTS "listings_public_featured_category_recent_idx_next" ON "listings" ("category_id", "updated_at" DESC, "id" DESC)
  INCLUDE ("subscription_expires_at", "featured_until")
  WHERE listing_public_if_unexpired("status", "subscription_status", "provider_approved", "owner_active")
    AND "featured_until" IS NOT NULL;
DROP INDEX CONCURRENTLY IF EXISTS "listings_public_featured_category_recent_idx";
ALTER INDEX "listings_public_featured_category_recent_idx_next" RENAME TO "listings_public_featured_category_recent_idx";

-- Substring search over name, description and provider name (LIKE '%q%' on the lower-cased text):
DROP INDEX CONCURRENTLY IF EXISTS "listings_public_search_trgm_idx_next";
CREATE INDEX CONCURRENTLY IF NOT EXISTS "listings_public_search_trgm_idx_next" ON "listings" USING GIN ("search_text" gin_trgm_ops)
  WHERE listing_public_if_unexpired("status", "subscription_status", "provider_approved", "owner_active");
DROP INDEX CONCURRENTLY IF EXISTS "listings_public_search_trgm_idx";
ALTER INDEX "listings_public_search_trgm_idx_next" RENAME TO "listings_public_search_trgm_idx";
