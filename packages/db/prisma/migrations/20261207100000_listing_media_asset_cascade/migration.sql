-- A listing's gallery link goes with its asset, as every other record's link does: deleting an
-- account deletes its assets' rows while its listings stay (for the books), and the RESTRICT of
-- listing_media refused that deletion. The constraint is replaced NOT VALID: every existing row
-- satisfied the same reference under the old one, and new rows are checked.
ALTER TABLE "listing_media" DROP CONSTRAINT "listing_media_media_asset_id_fkey";
ALTER TABLE "listing_media"
  ADD CONSTRAINT "listing_media_media_asset_id_fkey" FOREIGN KEY ("media_asset_id")
  REFERENCES "media_assets" ("id") ON DELETE CASCADE ON UPDATE CASCADE NOT VALID;
