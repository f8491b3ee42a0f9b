-- agora:no-transaction
-- Presence on the chat realtime channel. A user is online while a row of chat_connections (one per
-- open socket) has been refreshed within the presence timeout; rows a dead process left behind are
-- swept by any other process (by seen_at), and a user's presence is read by user (user_id,
-- seen_at). chat_presence keeps when each user was last active, for once their last row is gone.
--
-- The first line runs this migration outside a transaction, one statement at a time
-- (packages/db/src/migrator.ts), so the indexes on chat_connections, a table every open socket
-- writes, are built CONCURRENTLY. Each statement is safe to run again after a run that failed
-- part-way: an interrupted CREATE INDEX CONCURRENTLY leaves an INVALID index, which IF NOT EXISTS
-- alone would keep, so each index is dropped first (IF EXISTS) and built again.
SET lock_timeout = 0;

CREATE TABLE IF NOT EXISTS "chat_presence" (
  "user_id" UUID NOT NULL,
  "last_active_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "chat_presence_pkey" PRIMARY KEY ("user_id")
);

DROP INDEX CONCURRENTLY IF EXISTS "chat_connections_user_id_seen_at_idx";
CREATE INDEX CONCURRENTLY IF NOT EXISTS "chat_connections_user_id_seen_at_idx" ON "chat_connections" ("user_id", "seen_at");

DROP INDEX CONCURRENTLY IF EXISTS "chat_connections_seen_at_idx";
CREATE INDEX CONCURRENTLY IF NOT EXISTS "chat_connections_seen_at_idx" ON "chat_connections" ("seen_at");
