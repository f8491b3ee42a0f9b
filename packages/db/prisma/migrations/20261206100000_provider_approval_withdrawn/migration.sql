-- A provider profile's approval can be withdrawn: setting its owner's role back to `member`
-- withdraws it (docs/safety.md, "Demoted providers"), its listings leave every public read, and
-- every provider path refuses the owner (403) until an administrator approves the profile again.
-- The check is replaced NOT VALID: every existing row holds 'pending' or 'approved', which the new
-- one accepts; new and updated rows are checked.
ALTER TABLE "provider_profiles" DROP CONSTRAINT "provider_profiles_approval_status_check";
ALTER TABLE "provider_profiles"
  ADD CONSTRAINT "provider_profiles_approval_status_check"
  CHECK ("approval_status" IN ('pending', 'approved', 'withdrawn')) NOT VALID;

-- Owners demoted to member before this rule: their approved profiles are withdrawn now.
UPDATE "provider_profiles" p
   SET "approval_status" = 'withdrawn', "updated_at" = CURRENT_TIMESTAMP
  FROM "users" u
 WHERE u."id" = p."user_id" AND u."role" = 'member' AND p."approval_status" = 'approved';
UPDATE "listings" l
   SET "provider_approved" = false
  FROM "provider_profiles" p
 WHERE p."id" = l."provider_id" AND p."approval_status" = 'withdrawn' AND l."provider_approved";
