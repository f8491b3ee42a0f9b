-- Mutes: a member's personal filter (docs/safety.md, "Mutes"). The muted user's moments and
-- comments leave the muter's feed and comment lists, and their messages notify the muter no more;
-- the muted user is not told. Read by the feed's NOT EXISTS on the primary key (muter_id, muted_id);
-- the muted_id index serves a deleted account's cascade and the reverse lookup.
CREATE TABLE "user_mutes" (
  "muter_id" UUID NOT NULL,
  "muted_id" UUID NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "user_mutes_pkey" PRIMARY KEY ("muter_id", "muted_id"),
  CONSTRAINT "user_mutes_muter_id_fkey" FOREIGN KEY ("muter_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "user_mutes_muted_id_fkey" FOREIGN KEY ("muted_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "user_mutes_not_self_check" CHECK ("muter_id" <> "muted_id")
);
CREATE INDEX "user_mutes_muted_id_idx" ON "user_mutes" ("muted_id");
-- A member's list of mutes, newest first (GET /api/v1/community/mutes).
CREATE INDEX "user_mutes_muter_id_created_at_idx" ON "user_mutes" ("muter_id", "created_at");
