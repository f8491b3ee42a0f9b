-- The public catalog's change stamp: one number that every committed change to what a public
-- listing read shows (listings, their menu items, provider profiles, categories) moves on. An API
-- process keeps recent public listing pages beside the stamp they were read at, and serves one
-- again only while the stamp it reads per request is unchanged (packages/db/src/listing-cache.ts).
--
-- The bump runs at commit (deferred constraint triggers), once per transaction (a transaction-local
-- setting remembers it), and after every row lock the transaction takes: bumping at the first write
-- instead would take the stamp row's lock mid-transaction, and two transactions writing the catalog
-- in different orders could deadlock on it. Writers of the catalog still commit one at a time past
-- the stamp row; catalog writes are rare (providers and admins editing), orders never write it.
CREATE TABLE "catalog_stamp" (
  "id" SMALLINT NOT NULL DEFAULT 1,
  "version" BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT "catalog_stamp_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "catalog_stamp_one_row" CHECK ("id" = 1)
);
INSERT INTO "catalog_stamp" ("id", "version") VALUES (1, 0);

CREATE FUNCTION "catalog_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('agora.catalog_changed', true) IS DISTINCT FROM 'on' THEN
    UPDATE "catalog_stamp" SET "version" = "version" + 1 WHERE "id" = 1;
    PERFORM set_config('agora.catalog_changed', 'on', true);
  END IF;
  RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER "listings_catalog_changed" AFTER INSERT OR UPDATE OR DELETE ON "listings"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "catalog_changed"();
CREATE CONSTRAINT TRIGGER "menu_items_catalog_changed" AFTER INSERT OR UPDATE OR DELETE ON "menu_items"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "catalog_changed"();
CREATE CONSTRAINT TRIGGER "provider_profiles_catalog_changed" AFTER INSERT OR UPDATE OR DELETE ON "provider_profiles"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "catalog_changed"();
CREATE CONSTRAINT TRIGGER "categories_catalog_changed" AFTER INSERT OR UPDATE OR DELETE ON "categories"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "catalog_changed"();
-- TRUNCATE fires no row triggers; it takes the table's exclusive lock, so an immediate bump is safe.
CREATE TRIGGER "listings_catalog_truncated" AFTER TRUNCATE ON "listings"
  FOR EACH STATEMENT EXECUTE FUNCTION "catalog_changed"();
CREATE TRIGGER "menu_items_catalog_truncated" AFTER TRUNCATE ON "menu_items"
  FOR EACH STATEMENT EXECUTE FUNCTION "catalog_changed"();
CREATE TRIGGER "provider_profiles_catalog_truncated" AFTER TRUNCATE ON "provider_profiles"
  FOR EACH STATEMENT EXECUTE FUNCTION "catalog_changed"();
CREATE TRIGGER "categories_catalog_truncated" AFTER TRUNCATE ON "categories"
  FOR EACH STATEMENT EXECUTE FUNCTION "catalog_changed"();
