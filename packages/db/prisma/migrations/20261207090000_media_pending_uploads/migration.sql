-- agora:no-transaction
-- The pending-upload quota (docs/media.md, "Pending uploads"): each upload request counts its
-- owner's assets not attached yet, requested within the last 24 hours. Partial (Prisma cannot
-- declare it), like media_assets_unattached_idx: attached assets, the bulk of the table, are not
-- in it, so a member with thousands of published images costs no more than one with none.
--
-- The first line runs this migration outside a transaction, one statement at a time
-- (packages/db/src/migrator.ts), so the index is built CONCURRENTLY: uploads and attaches go on
-- throughout. A failed run can leave an INVALID index, which IF NOT EXISTS alone would keep, so
-- the rerun drops it first. No lock timeout (see 20261203000100_listing_visibility_indexes): the
-- build waits for older transactions without holding up any reader or writer of media_assets.
SET lock_timeout = 0;

DROP INDEX CONCURRENTLY IF EXISTS "media_assets_owner_unattached_idx";
CREATE INDEX CONCURRENTLY IF NOT EXISTS "media_assets_owner_unattached_idx"
  ON "media_assets" ("owner_id", "created_at") WHERE "attached_at" IS NULL;
