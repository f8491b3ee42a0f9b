-- The orderable menu item, stated once. Until now the item's part of the rule (`m.active AND
-- m.deleted_at IS NULL`) was written out beside a call of listing_publicly_visible in the
-- repositories (the public item read and the order's write through menu-items.repository.ts's
-- orderableAt, and the media read policy on its own), and the public listing reads listed a
-- listing's items by `m.active` alone. It is now two SQL functions, the second defined through the
-- first, as the listing's are:
--
--   menu_item_on_offer(active, deleted_at)
--     the item's own part: it is active and not deleted (the menu_items row's two facts). What the
--     public listing reads list a listing's items by: their WHERE already holds the listing to
--     listing_publicly_visible at the same `at`, so an item they list is orderable, and the item
--     lists plan as before (no second check of the listing per listing).
--   menu_item_orderable(active, deleted_at, status, subscription_status, provider_approved,
--                       owner_active, subscription_expires_at, at)
--     the rule: the above, and its listing publicly visible at `at` (listing_publicly_visible,
--     20261203000000_listing_visibility_rule: the listing active, its subscription active and
--     unexpired at `at`, its provider approved and the provider's account active, both mirrored on
--     the listing; the listing's five arguments in that function's order). What the public item
--     read (what an order is decided from), the order's own write (which checks it again at the
--     order's time) and the media read policy (an item's image is public while the item is
--     orderable) call.
--
-- What an order copies needs no fact here: price_amount and currency are NOT NULL (the price
-- checked >= 0) and the name is NOT NULL, so every row has them.
--
-- The domain mirrors both with menuItemOnOffer and menuItemOrderable (packages/domain/src/
-- marketplace/marketplace.policy.ts), and packages/db/test/menu-item-orderable.int.test.ts proves
-- they agree on every combination of the facts, that the item read, the order's write, the listing
-- reads' item lists and the media read answer what the domain decides, and that the statements plan
-- as the conditions written out did.
--
-- As the listing functions: IMMUTABLE `LANGUAGE sql` functions whose body is one SQL-standard
-- expression (RETURN, parsed once here, so inlining does not depend on the caller's search_path),
-- neither STRICT nor with a SET clause, and no sub-SELECT in them: PostgreSQL inlines them wherever
-- they are called, and listing_publicly_visible and listing_public_if_unexpired inside the second,
-- so the plans are those of the conditions written out (the public partial indexes still serve the
-- listing side). IMMUTABLE is why the clock is a parameter.
--
-- Changing the rule: write a new migration with CREATE OR REPLACE FUNCTION (a new fact is a new
-- argument, so a new signature: drop the old function after its callers have moved), change the
-- domain's mirrors with it, and run the agreement test. No index or trigger calls these functions;
-- if one ever does, the migration must rebuild it as well (an index keeps what its predicate said
-- when each row was indexed), as 20261203000100_listing_visibility_indexes does for the listing's.

CREATE FUNCTION "menu_item_on_offer"("active" BOOLEAN, "deleted_at" TIMESTAMPTZ)
RETURNS BOOLEAN LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN "active" AND "deleted_at" IS NULL;

CREATE FUNCTION "menu_item_orderable"(
  "active" BOOLEAN, "deleted_at" TIMESTAMPTZ,
  "status" TEXT, "subscription_status" TEXT, "provider_approved" BOOLEAN, "owner_active" BOOLEAN,
  "subscription_expires_at" TIMESTAMPTZ, "at" TIMESTAMPTZ
) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN menu_item_on_offer("active", "deleted_at")
   AND listing_publicly_visible("status", "subscription_status", "provider_approved", "owner_active",
                                "subscription_expires_at", "at");
