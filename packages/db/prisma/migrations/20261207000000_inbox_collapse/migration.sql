-- Chat notices collapse per conversation: a recipient has at most one inbox row per conversation
-- (its id is derived from the recipient and the conversation), updated in place as messages arrive.
-- `conversation_id` marks such a row; its read state and count are read from the conversation's
-- read marker (notifications.repository.ts), never stored on the row.
ALTER TABLE "notifications" ADD COLUMN "conversation_id" UUID;

-- The per-message rows written before this migration become chat notices of their conversation, so
-- that reading the conversation reads them too and the unread count stops counting them twice.
UPDATE "notifications" SET "conversation_id" = ("data" ->> 'conversation_id')::uuid
 WHERE "kind" = 'message.sent' AND "data" ? 'conversation_id';
