-- Abuse resistance: a listing's visibility follows its owner's account, and push registrations
-- remember the session that made them.

-- Listings mirror whether the provider's account is active (as they mirror the provider's
-- approval), so the public predicate stays on one table and its partial indexes keep serving it.
-- Kept in step by the users repository when an account is suspended, deleted or reactivated.
ALTER TABLE "listings" ADD COLUMN "owner_active" BOOLEAN NOT NULL DEFAULT true;
UPDATE "listings" l SET "owner_active" = false
  FROM "provider_profiles" p JOIN "users" u ON u."id" = p."user_id"
 WHERE l."provider_id" = p."id" AND u."status" <> 'active';

-- The public partial indexes, rebuilt with the owner in their predicate (same columns and purpose
-- as in 20261122020000_marketplace; not expressible in schema.prisma, the drift check ignores them).
DROP INDEX "listings_public_recent_idx";
DROP INDEX "listings_public_category_recent_idx";
DROP INDEX "listings_public_expiry_idx";
DROP INDEX "listings_public_featured_idx";
DROP INDEX "listings_public_search_trgm_idx";
-- Most recently updated first (browse), and its per-category twin:
CREATE INDEX "listings_public_recent_idx" ON "listings" ("updated_at" DESC, "id" DESC)
  INCLUDE ("subscription_expires_at", "featured_until")
  WHERE "status" = 'active' AND "subscription_status" = 'active' AND "provider_approved" AND "owner_active";
CREATE INDEX "listings_public_category_recent_idx" ON "listings" ("category_id", "updated_at" DESC, "id" DESC)
  INCLUDE ("subscription_expires_at", "featured_until")
  WHERE "status" = 'active' AND "subscription_status" = 'active' AND "provider_approved" AND "owner_active";
-- Counting the public ones (the total of a browse page) from the index alone:
CREATE INDEX "listings_public_expiry_idx" ON "listings" ("subscription_expires_at")
  WHERE "status" = 'active' AND "subscription_status" = 'active' AND "provider_approved" AND "owner_active";
-- The few featured ones, found by their featured-until time:
CREATE INDEX "listings_public_featured_idx" ON "listings" ("featured_until")
  INCLUDE ("subscription_expires_at", "updated_at", "category_id")
  WHERE "status" = 'active' AND "subscription_status" = 'active' AND "provider_approved" AND "owner_active"
    AND "featured_until" IS NOT NULL;
-- Substring search over name, description and provider name (LIKE '%q%' on the lower-cased text):
CREATE INDEX "listings_public_search_trgm_idx" ON "listings" USING GIN ("search_text" gin_trgm_ops)
  WHERE "status" = 'active' AND "subscription_status" = 'active' AND "provider_approved" AND "owner_active";

-- A push registration belongs to the session that made it: pushes go only to registrations of
-- live sessions (a signed-out phone stops receiving the user's notifications), and a token held by
-- another user's live session moves only with proof that the caller's device receives its pushes.
-- NULL for registrations made before this column (treated as live).
ALTER TABLE "devices" ADD COLUMN "session_id" UUID;
ALTER TABLE "devices" ADD CONSTRAINT "devices_session_id_fkey"
  FOREIGN KEY ("session_id") REFERENCES "sessions" ("id") ON DELETE SET NULL ON UPDATE CASCADE;
