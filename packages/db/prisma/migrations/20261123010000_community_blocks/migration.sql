-- The block graph: one row per (blocker, blocked). It is the one table every surface asks (feed,
-- moment reads, comments, chat, dating browse); a block hides both users from each other.

CREATE TABLE "user_blocks" (
  "blocker_id" UUID NOT NULL,
  "blocked_id" UUID NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "user_blocks_pkey" PRIMARY KEY ("blocker_id", "blocked_id"),
  CONSTRAINT "user_blocks_blocker_id_fkey" FOREIGN KEY ("blocker_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "user_blocks_blocked_id_fkey" FOREIGN KEY ("blocked_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "user_blocks_not_self_check" CHECK ("blocker_id" <> "blocked_id")
);
-- "Who blocked me" (the other direction of the either-way check).
CREATE INDEX "user_blocks_blocked_id_idx" ON "user_blocks" ("blocked_id");
