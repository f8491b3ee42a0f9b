-- The admin order search (GET /api/v1/admin/orders?q=, issue 12) matched item names with a
-- trigram index on orders: every candidate order was then read from the heap and rechecked
-- (4,300 heap pages for one common word on 1M orders, most of a request's time).
--
-- An order's item_name is the name its menu item had when it was ordered (the server copies it;
-- no client sets it), so the distinct item names of all orders are among the names menu items
-- have ever carried: a vocabulary that is small beside the orders. The search now matches the
-- vocabulary by trigram, then finds the orders carrying the matching names on a b-tree that also
-- holds status, created_at and id, so the count and the page come from the index alone.

-- Every name a menu item has carried, kept by the trigger below (and never deleted: old orders
-- keep old names). Never written by the application.
CREATE TABLE "menu_item_names" (
    "name" TEXT NOT NULL,
    CONSTRAINT "menu_item_names_pkey" PRIMARY KEY ("name")
);
CREATE INDEX "menu_item_names_name_trgm_idx" ON "menu_item_names" USING GIN ("name" gin_trgm_ops);

CREATE FUNCTION "menu_item_names_record"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO menu_item_names (name) SELECT DISTINCT name FROM new_rows ORDER BY name
  ON CONFLICT (name) DO NOTHING;
  RETURN NULL;
END;
$$;
CREATE TRIGGER "menu_item_names_insert" AFTER INSERT ON "menu_items"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "menu_item_names_record"();
CREATE TRIGGER "menu_item_names_update" AFTER UPDATE ON "menu_items"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "menu_item_names_record"();

INSERT INTO "menu_item_names" ("name")
SELECT "name" FROM "menu_items" UNION SELECT "item_name" FROM "orders"
ON CONFLICT ("name") DO NOTHING;

CREATE INDEX "orders_item_name_status_created_at_id_idx"
  ON "orders" ("item_name", "status", "created_at" DESC, "id" DESC);
-- Replaced by the two above; it also cost every order insert a trigram entry per three letters.
DROP INDEX "orders_item_name_trgm_idx";
