-- Browse (GET /api/v1/listings without q) under varied traffic (issue 17): its total counted
-- every public listing (90,000 index entries per request on the bench's data) and its featured
-- branch filtered the whole recent index for the few featured ones.

-- Public listings (the static part of the public predicate, with an expiry) per category and UTC
-- day of expiry, kept by the trigger below. A browse total is then the days after today's, summed
-- from this small table, plus a count of today's expiring ones, from the expiry index.
CREATE TABLE "listing_public_counts" (
    "category_id" UUID NOT NULL,
    "expires_on" DATE NOT NULL,
    "listings" INTEGER NOT NULL,
    CONSTRAINT "listing_public_counts_pkey" PRIMARY KEY ("category_id", "expires_on")
);

-- One statement-level trigger per kind of change: each statement's rows that leave the public set
-- count -1 and those that enter it +1, summed per (category, day) and applied in key order (so
-- concurrent statements lock the counters in the same order).
CREATE FUNCTION "listing_public_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO listing_public_counts AS c (category_id, expires_on, listings)
    SELECT category_id, (subscription_expires_at AT TIME ZONE 'UTC')::date, count(*)::int
      FROM new_rows
     WHERE status = 'active' AND subscription_status = 'active' AND provider_approved AND owner_active
       AND subscription_expires_at IS NOT NULL
     GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (category_id, expires_on) DO UPDATE SET listings = c.listings + EXCLUDED.listings;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO listing_public_counts AS c (category_id, expires_on, listings)
    SELECT category_id, (subscription_expires_at AT TIME ZONE 'UTC')::date, -count(*)::int
      FROM old_rows
     WHERE status = 'active' AND subscription_status = 'active' AND provider_approved AND owner_active
       AND subscription_expires_at IS NOT NULL
     GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (category_id, expires_on) DO UPDATE SET listings = c.listings + EXCLUDED.listings;
  ELSE
    INSERT INTO listing_public_counts AS c (category_id, expires_on, listings)
    SELECT category_id, expires_on, sum(delta)::int
      FROM (SELECT category_id, (subscription_expires_at AT TIME ZONE 'UTC')::date AS expires_on, 1 AS delta
              FROM new_rows
             WHERE status = 'active' AND subscription_status = 'active' AND provider_approved AND owner_active
               AND subscription_expires_at IS NOT NULL
            UNION ALL
            SELECT category_id, (subscription_expires_at AT TIME ZONE 'UTC')::date, -1
              FROM old_rows
             WHERE status = 'active' AND subscription_status = 'active' AND provider_approved AND owner_active
               AND subscription_expires_at IS NOT NULL) AS changes
     GROUP BY 1, 2 HAVING sum(delta) <> 0 ORDER BY 1, 2
    ON CONFLICT (category_id, expires_on) DO UPDATE SET listings = c.listings + EXCLUDED.listings;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "listing_public_counts_insert" AFTER INSERT ON "listings"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "listing_public_counts_apply"();
CREATE TRIGGER "listing_public_counts_update" AFTER UPDATE ON "listings"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "listing_public_counts_apply"();
CREATE TRIGGER "listing_public_counts_delete" AFTER DELETE ON "listings"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "listing_public_counts_apply"();

INSERT INTO "listing_public_counts" ("category_id", "expires_on", "listings")
SELECT "category_id", ("subscription_expires_at" AT TIME ZONE 'UTC')::date, count(*)::int
  FROM "listings"
 WHERE "status" = 'active' AND "subscription_status" = 'active' AND "provider_approved" AND "owner_active"
   AND "subscription_expires_at" IS NOT NULL
 GROUP BY 1, 2;

-- Today's expiring public listings, by category (the rest of a browse total): the expiry index
-- with the category, so both kinds of total are index-only.
DROP INDEX "listings_public_expiry_idx";
CREATE INDEX "listings_public_expiry_idx" ON "listings" ("subscription_expires_at") INCLUDE ("category_id")
  WHERE "status" = 'active' AND "subscription_status" = 'active' AND "provider_approved" AND "owner_active";

-- The featured branch of a browse page, in page order over the featured ones only (a listing
-- whose featuring has ended stays in them, filtered out; the non-featured branch keeps the
-- recent indexes), and its per-category twin.
CREATE INDEX "listings_public_featured_recent_idx" ON "listings" ("updated_at" DESC, "id" DESC)
  INCLUDE ("subscription_expires_at", "featured_until")
  WHERE "status" = 'active' AND "subscription_status" = 'active' AND "provider_approved" AND "owner_active"
    AND "featured_until" IS NOT NULL;
CREATE INDEX "listings_public_featured_category_recent_idx" ON "listings" ("category_id", "updated_at" DESC, "id" DESC)
  INCLUDE ("subscription_expires_at", "featured_until")
  WHERE "status" = 'active' AND "subscription_status" = 'active' AND "provider_approved" AND "owner_active"
    AND "featured_until" IS NOT NULL;
