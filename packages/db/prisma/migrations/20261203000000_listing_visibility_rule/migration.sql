-- Public listing visibility, stated once (issue 26). Until now the rule was written out in the
-- listing queries, four times in the browse counters' trigger function, and in the predicate of
-- every public partial index. It is now two SQL functions, the second defined through the first:
--
--   listing_public_if_unexpired(status, subscription_status, provider_approved, owner_active)
--     the part that does not depend on the clock: the listing is active, its subscription is
--     active, its provider is approved and the provider's account is active (both mirrored on the
--     listing). The predicate of the partial indexes and what the browse counters count.
--   listing_publicly_visible(…the same…, subscription_expires_at, at)
--     the rule: the above, and the subscription unexpired at `at` (a parameter: expiry is checked
--     when the listing is read, never stored). What every public read and the order check use.
--
-- The domain mirrors both with functions of the same names (packages/domain/src/marketplace/
-- marketplace.policy.ts), and a test proves the two agree on every combination of the facts.
--
-- Both are IMMUTABLE `LANGUAGE sql` functions with a single expression as body, neither STRICT nor
-- with a SET clause: PostgreSQL inlines them wherever they are called, also into an index
-- predicate before it compares it with a query's conditions, so a query calling
-- listing_publicly_visible(…) is proved to match the partial indexes built on
-- listing_public_if_unexpired(…), and the plans are the ones the written-out conditions had. (An
-- index predicate may only call IMMUTABLE functions, which is why the clock stays a parameter.)
-- The bodies are SQL-standard (RETURN), parsed once here, so inlining does not depend on the
-- caller's search_path.
--
-- The public partial indexes are rebuilt on listing_public_if_unexpired by the next migration,
-- 20261203000100_listing_visibility_indexes, outside a transaction (CREATE INDEX CONCURRENTLY, so
-- writes to listings go on meanwhile). Until it has run, the indexes of 20261128000000 and
-- 20261130000000 with the conditions written out serve the reads that call the functions: the
-- inlined function is the same conditions, which imply those predicates.
--
-- Changing the rule: write a new migration that replaces the functions AND rebuilds the indexes
-- (as 20261203000100 does) and the counters below (an index stores what its predicate said when
-- each row was indexed; replacing an immutable function an index uses does not re-index it).

CREATE FUNCTION "listing_public_if_unexpired"(
  "status" TEXT, "subscription_status" TEXT, "provider_approved" BOOLEAN, "owner_active" BOOLEAN
) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN "status" = 'active' AND "subscription_status" = 'active' AND "provider_approved" AND "owner_active";

CREATE FUNCTION "listing_publicly_visible"(
  "status" TEXT, "subscription_status" TEXT, "provider_approved" BOOLEAN, "owner_active" BOOLEAN,
  "subscription_expires_at" TIMESTAMPTZ, "at" TIMESTAMPTZ
) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN listing_public_if_unexpired("status", "subscription_status", "provider_approved", "owner_active")
   AND "subscription_expires_at" > "at";

-- The browse counters (20261130000000_listing_browse): the same deltas, each row counted when the
-- static part of the rule holds and it has an expiry (the day it is counted under). The counts
-- themselves are unchanged (the rule is), so there is nothing to back-fill.
CREATE OR REPLACE FUNCTION "listing_public_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO listing_public_counts AS c (category_id, expires_on, listings)
    SELECT category_id, (subscription_expires_at AT TIME ZONE 'UTC')::date, count(*)::int
      FROM new_rows
     WHERE listing_public_if_unexpired(status, subscription_status, provider_approved, owner_active)
       AND subscription_expires_at IS NOT NULL
     GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (category_id, expires_on) DO UPDATE SET listings = c.listings + EXCLUDED.listings;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO listing_public_counts AS c (category_id, expires_on, listings)
    SELECT category_id, (subscription_expires_at AT TIME ZONE 'UTC')::date, -count(*)::int
      FROM old_rows
     WHERE listing_public_if_unexpired(status, subscription_status, provider_approved, owner_active)
       AND subscription_expires_at IS NOT NULL
     GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (category_id, expires_on) DO UPDATE SET listings = c.listings + EXCLUDED.listings;
  ELSE
    INSERT INTO listing_public_counts AS c (category_id, expires_on, listings)
    SELECT category_id, (subscription_expires_at AT TIME ZONE 'UTC')::date, sum(delta)::int
      FROM (SELECT category_id, subscription_expires_at, status, subscription_status, provider_approved,
                   owner_active, 1 AS delta
              FROM new_rows
            UNION ALL
            SELECT category_id, subscription_expires_at, status, subscription_status, provider_approved,
                   owner_active, -1
              FROM old_rows) AS changes
     WHERE listing_public_if_unexpired(status, subscription_status, provider_approved, owner_active)
       AND subscription_expires_at IS NOT NULL
     GROUP BY 1, 2 HAVING sum(delta) <> 0 ORDER BY 1, 2
    ON CONFLICT (category_id, expires_on) DO UPDATE SET listings = c.listings + EXCLUDED.listings;
  END IF;
  RETURN NULL;
END
$$;
