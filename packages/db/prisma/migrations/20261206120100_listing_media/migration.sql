-- A listing's gallery: up to 10 of its owner's media assets uploaded for `listing`, in order. An
-- asset is on one record only (the unique index); an image replaced or removed loses its row here
-- and is detached, so the orphan purge deletes it. The purpose check gains `listing`: a new check
-- is added NOT VALID (every existing row holds one of the old purposes) and the old one dropped.
ALTER TABLE "media_assets"
  ADD CONSTRAINT "media_assets_purpose_check_v2"
  CHECK ("purpose" IN ('moment', 'message', 'payment_evidence', 'listing')) NOT VALID;
ALTER TABLE "media_assets" DROP CONSTRAINT "media_assets_purpose_check";

CREATE TABLE "listing_media" (
  "listing_id" UUID NOT NULL,
  "position" SMALLINT NOT NULL,
  "media_asset_id" UUID NOT NULL,
  CONSTRAINT "listing_media_pkey" PRIMARY KEY ("listing_id", "position"),
  CONSTRAINT "listing_media_listing_id_fkey" FOREIGN KEY ("listing_id") REFERENCES "listings" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "listing_media_media_asset_id_fkey" FOREIGN KEY ("media_asset_id") REFERENCES "media_assets" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "listing_media_position_check" CHECK ("position" BETWEEN 0 AND 9)
);
CREATE UNIQUE INDEX "listing_media_media_asset_id_key" ON "listing_media" ("media_asset_id");
