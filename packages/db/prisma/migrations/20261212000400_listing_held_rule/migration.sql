-- A held listing or menu item is out of the public (issue 46): a content filter rule with action
-- `hold` saves a listing's or a menu item's text with `held_at` set (20261212000000_reports_any_target
-- added the columns), and only a moderator's decision clears it. The public rules gain the fact as a
-- new argument, so each function has a new signature beside the previous one (expand/contract):
--
--   listing_public_if_unexpired(status, subscription_status, provider_approved, owner_active, held_at)
--   listing_publicly_visible(status, subscription_status, provider_approved, owner_active, held_at,
--                            subscription_expires_at, at)
--     the rules of 20261203000000_listing_visibility_rule, and the listing not held.
--   menu_item_on_offer(active, deleted_at, held_at)
--   menu_item_orderable(active, deleted_at, held_at, status, subscription_status, provider_approved,
--                       owner_active, listing_held_at, subscription_expires_at, at)
--     the rules of 20261210010000_menu_item_orderable_rule, the item not held, on a listing not held.
--
-- The previous signatures stay, unchanged, for the release still running while this one rolls out
-- (it never sets held_at on a listing or an item, and reads as before); a later release drops them
-- once no caller is left. The domain mirrors the new ones (packages/domain/src/marketplace/
-- marketplace.policy.ts), and packages/db/test/listing-visibility.int.test.ts and
-- packages/db/test/menu-item-orderable.int.test.ts prove they agree on every combination.
--
-- Same form as before (IMMUTABLE `LANGUAGE sql`, one SQL-standard expression, not STRICT, no SET),
-- so PostgreSQL inlines them. The new ones call only each other (the clock-free parts are written
-- out), so dropping the previous signatures later does not touch them.
--
-- The public partial indexes (20261203000100_listing_visibility_indexes) are NOT rebuilt: their
-- predicate is the previous clock-free rule, which the new rule implies (the new one is the old one
-- AND held_at IS NULL), so a read calling the new function is still proved to match them and plans
-- as before; a held listing stays in those indexes and is filtered out by the read's own condition
-- (held listings are few). Counting is different: the browse counters must count a held listing
-- out, so their trigger function is replaced below to count by the new rule. No back-fill: until
-- this release a hold refused a listing's write, so no listing is held.

CREATE FUNCTION "listing_public_if_unexpired"(
  "status" TEXT, "subscription_status" TEXT, "provider_approved" BOOLEAN, "owner_active" BOOLEAN,
  "held_at" TIMESTAMPTZ
) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN "status" = 'active' AND "subscription_status" = 'active' AND "provider_approved" AND "owner_active"
   AND "held_at" IS NULL;

CREATE FUNCTION "listing_publicly_visible"(
  "status" TEXT, "subscription_status" TEXT, "provider_approved" BOOLEAN, "owner_active" BOOLEAN,
  "held_at" TIMESTAMPTZ, "subscription_expires_at" TIMESTAMPTZ, "at" TIMESTAMPTZ
) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN listing_public_if_unexpired("status", "subscription_status", "provider_approved", "owner_active", "held_at")
   AND "subscription_expires_at" > "at";

CREATE FUNCTION "menu_item_on_offer"("active" BOOLEAN, "deleted_at" TIMESTAMPTZ, "held_at" TIMESTAMPTZ)
RETURNS BOOLEAN LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN "active" AND "deleted_at" IS NULL AND "held_at" IS NULL;

CREATE FUNCTION "menu_item_orderable"(
  "active" BOOLEAN, "deleted_at" TIMESTAMPTZ, "held_at" TIMESTAMPTZ,
  "status" TEXT, "subscription_status" TEXT, "provider_approved" BOOLEAN, "owner_active" BOOLEAN,
  "listing_held_at" TIMESTAMPTZ, "subscription_expires_at" TIMESTAMPTZ, "at" TIMESTAMPTZ
) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN menu_item_on_offer("active", "deleted_at", "held_at")
   AND listing_publicly_visible("status", "subscription_status", "provider_approved", "owner_active",
                                "listing_held_at", "subscription_expires_at", "at");

-- The browse counters: the deltas of 20261203000000_listing_visibility_rule, each row counted when
-- the new clock-free rule holds (so a hold takes a listing out, a release puts it back).
CREATE OR REPLACE FUNCTION "listing_public_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO listing_public_counts AS c (category_id, expires_on, listings)
    SELECT category_id, (subscription_expires_at AT TIME ZONE 'UTC')::date, count(*)::int
      FROM new_rows
     WHERE listing_public_if_unexpired(status, subscription_status, provider_approved, owner_active, held_at)
       AND subscription_expires_at IS NOT NULL
     GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (category_id, expires_on) DO UPDATE SET listings = c.listings + EXCLUDED.listings;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO listing_public_counts AS c (category_id, expires_on, listings)
    SELECT category_id, (subscription_expires_at AT TIME ZONE 'UTC')::date, -count(*)::int
      FROM old_rows
     WHERE listing_public_if_unexpired(status, subscription_status, provider_approved, owner_active, held_at)
       AND subscription_expires_at IS NOT NULL
     GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (category_id, expires_on) DO UPDATE SET listings = c.listings + EXCLUDED.listings;
  ELSE
    INSERT INTO listing_public_counts AS c (category_id, expires_on, listings)
    SELECT category_id, (subscription_expires_at AT TIME ZONE 'UTC')::date, sum(delta)::int
      FROM (SELECT category_id, subscription_expires_at, status, subscription_status, provider_approved,
                   owner_active, held_at, 1 AS delta
              FROM new_rows
            UNION ALL
            SELECT category_id, subscription_expires_at, status, subscription_status, provider_approved,
                   owner_active, held_at, -1
              FROM old_rows) AS changes
     WHERE listing_public_if_unexpired(status, subscription_status, provider_approved, owner_active, held_at)
       AND subscription_expires_at IS NOT NULL
     GROUP BY 1, 2 HAVING sum(delta) <> 0 ORDER BY 1, 2
    ON CONFLICT (category_id, expires_on) DO UPDATE SET listings = c.listings + EXCLUDED.listings;
  END IF;
  RETURN NULL;
END
$$;
