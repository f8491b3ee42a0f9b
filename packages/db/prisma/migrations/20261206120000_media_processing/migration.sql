-- Media processing: a confirmed upload is checked and processed by the worker (the
-- `media.uploaded` outbox event) before any record may take it. `processing` is NULL until the
-- upload is confirmed, then `processing`, `ready` or `rejected` (with `rejected_reason`, said to
-- the owner). `image` holds a ready image's served size, blurhash and variant sizes:
-- {"width","height","blurhash","variants":{"thumb":{"width","height"},"display":{...}}}.
-- The check is added NOT VALID: every existing row holds NULL or the backfilled 'processing'.
ALTER TABLE "media_assets" ADD COLUMN "processing" TEXT;
ALTER TABLE "media_assets" ADD COLUMN "rejected_reason" TEXT;
ALTER TABLE "media_assets" ADD COLUMN "image" JSONB;
ALTER TABLE "media_assets"
  ADD CONSTRAINT "media_assets_processing_check" CHECK ("processing" IN ('processing', 'ready', 'rejected')) NOT VALID;

-- Uploads confirmed before processing existed are processed now: their metadata (GPS included)
-- is stripped and they are served from the processed copy once the worker is done.
UPDATE "media_assets" SET "processing" = 'processing' WHERE "status" = 'uploaded';
INSERT INTO "outbox_events" ("id", "kind", "aggregate_type", "aggregate_id", "payload", "attempts", "available_at", "created_at")
SELECT gen_random_uuid(), 'media.uploaded', 'media_asset', "id"::text, jsonb_build_object('media_asset_id', "id"), 0, now(), now()
  FROM "media_assets" WHERE "status" = 'uploaded';
