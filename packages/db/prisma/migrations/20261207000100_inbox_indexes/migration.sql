-- agora:no-transaction
-- The indexes of the inbox's unread count and of marking everything read (20261207000000_inbox_collapse),
-- built CONCURRENTLY (see 20261203000100_listing_visibility_indexes for the pattern): each statement
-- can run again after a failed run (an interrupted build leaves an INVALID index, dropped first).
SET lock_timeout = 0;

-- The caller's unread notices other than chat (counted for `meta.unread_count` and the push badge,
-- and updated by "mark everything read").
DROP INDEX CONCURRENTLY IF EXISTS "notifications_unread_idx";
CREATE INDEX CONCURRENTLY IF NOT EXISTS "notifications_unread_idx" ON "notifications" ("user_id")
  WHERE "read_at" IS NULL AND "conversation_id" IS NULL;

-- The caller's conversations with unread messages, per side of the pair: the unread sum is an
-- index-only scan of these, and "mark everything read" moves the markers of these rows only.
DROP INDEX CONCURRENTLY IF EXISTS "conversations_unread_a_idx";
CREATE INDEX CONCURRENTLY IF NOT EXISTS "conversations_unread_a_idx" ON "conversations" ("user_a_id")
  INCLUDE ("last_seq", "user_a_read_seq") WHERE "last_seq" > "user_a_read_seq";
DROP INDEX CONCURRENTLY IF EXISTS "conversations_unread_b_idx";
CREATE INDEX CONCURRENTLY IF NOT EXISTS "conversations_unread_b_idx" ON "conversations" ("user_b_id")
  INCLUDE ("last_seq", "user_b_read_seq") WHERE "last_seq" > "user_b_read_seq";
