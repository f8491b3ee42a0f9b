-- The images of the other records, each a link table shaped like `listing_media`: a menu item's
-- image and a provider's logo (one each), a dating profile's photos (up to 6, in order) and a
-- user's avatar (one). An asset is on one record only (the unique indexes; its purpose names the
-- table). A replaced or removed image loses its row and is detached, so the orphan purge deletes
-- it; deleting the record or the asset row (account deletion) deletes the link. The purpose check
-- gains the four purposes: a new check NOT VALID (every existing row holds an old purpose), the
-- old one dropped.
ALTER TABLE "media_assets"
  ADD CONSTRAINT "media_assets_purpose_check_v3"
  CHECK ("purpose" IN ('moment', 'message', 'payment_evidence', 'listing', 'menu_item', 'provider_logo', 'dating_photo', 'avatar')) NOT VALID;
ALTER TABLE "media_assets" DROP CONSTRAINT "media_assets_purpose_check_v2";

CREATE TABLE "menu_item_media" (
  "menu_item_id" UUID NOT NULL,
  "position" SMALLINT NOT NULL,
  "media_asset_id" UUID NOT NULL,
  CONSTRAINT "menu_item_media_pkey" PRIMARY KEY ("menu_item_id", "position"),
  CONSTRAINT "menu_item_media_menu_item_id_fkey" FOREIGN KEY ("menu_item_id") REFERENCES "menu_items" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "menu_item_media_media_asset_id_fkey" FOREIGN KEY ("media_asset_id") REFERENCES "media_assets" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "menu_item_media_position_check" CHECK ("position" = 0)
);
CREATE UNIQUE INDEX "menu_item_media_media_asset_id_key" ON "menu_item_media" ("media_asset_id");

CREATE TABLE "provider_media" (
  "provider_id" UUID NOT NULL,
  "position" SMALLINT NOT NULL,
  "media_asset_id" UUID NOT NULL,
  CONSTRAINT "provider_media_pkey" PRIMARY KEY ("provider_id", "position"),
  CONSTRAINT "provider_media_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "provider_profiles" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "provider_media_media_asset_id_fkey" FOREIGN KEY ("media_asset_id") REFERENCES "media_assets" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "provider_media_position_check" CHECK ("position" = 0)
);
CREATE UNIQUE INDEX "provider_media_media_asset_id_key" ON "provider_media" ("media_asset_id");

CREATE TABLE "dating_profile_media" (
  "user_id" UUID NOT NULL,
  "position" SMALLINT NOT NULL,
  "media_asset_id" UUID NOT NULL,
  CONSTRAINT "dating_profile_media_pkey" PRIMARY KEY ("user_id", "position"),
  CONSTRAINT "dating_profile_media_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "dating_profiles" ("user_id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "dating_profile_media_media_asset_id_fkey" FOREIGN KEY ("media_asset_id") REFERENCES "media_assets" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "dating_profile_media_position_check" CHECK ("position" BETWEEN 0 AND 5)
);
CREATE UNIQUE INDEX "dating_profile_media_media_asset_id_key" ON "dating_profile_media" ("media_asset_id");

CREATE TABLE "user_media" (
  "user_id" UUID NOT NULL,
  "position" SMALLINT NOT NULL,
  "media_asset_id" UUID NOT NULL,
  CONSTRAINT "user_media_pkey" PRIMARY KEY ("user_id", "position"),
  CONSTRAINT "user_media_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "user_media_media_asset_id_fkey" FOREIGN KEY ("media_asset_id") REFERENCES "media_assets" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "user_media_position_check" CHECK ("position" = 0)
);
CREATE UNIQUE INDEX "user_media_media_asset_id_key" ON "user_media" ("media_asset_id");
