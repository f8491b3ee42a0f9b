-- Changing the email address (docs/accounts.md, "Changing the email address").
--
-- email_changes: the one pending change of an account (a new request replaces it). Its code is an
-- ordinary mailed code in auth_codes, purpose 'email_change', mailed to new_email; the switch
-- re-checks the address, and the unique index on users.email decides a race for it.
--
-- email_change_undos: one per completed change. The old address is told, with a link whose token
-- is stored here only as its SHA-256 (token_hash); while a row is live (unused, unexpired) its
-- old_email is reserved: registration and email changes to it answer as for a taken address.

-- The purpose check widens. NOT VALID and never validated: every existing row met the narrower
-- check, so it meets this one, and new rows are checked all the same; no scan of a busy table.
ALTER TABLE "auth_codes" DROP CONSTRAINT "auth_codes_purpose_check";
ALTER TABLE "auth_codes" ADD CONSTRAINT "auth_codes_purpose_check"
  CHECK ("purpose" IN ('verification', 'sign_in', 'reset', 'email_change')) NOT VALID;

CREATE TABLE "email_changes" (
  "user_id" UUID NOT NULL,
  "new_email" TEXT NOT NULL,
  "requested_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "email_changes_pkey" PRIMARY KEY ("user_id"),
  CONSTRAINT "email_changes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "email_change_undos" (
  "id" UUID NOT NULL,
  "user_id" UUID NOT NULL,
  "token_hash" TEXT NOT NULL,
  "old_email" TEXT NOT NULL,
  "new_email" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  "expires_at" TIMESTAMPTZ(6) NOT NULL,
  "used_at" TIMESTAMPTZ(6),
  CONSTRAINT "email_change_undos_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "email_change_undos_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "email_change_undos_token_hash_key" ON "email_change_undos" ("token_hash");
CREATE INDEX "email_change_undos_user_id_idx" ON "email_change_undos" ("user_id");
CREATE INDEX "email_change_undos_old_email_idx" ON "email_change_undos" ("old_email");
