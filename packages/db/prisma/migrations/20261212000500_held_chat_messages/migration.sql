-- Held chat messages (docs/safety.md, "Filters"). A message a filter rule holds is outside the
-- conversation's 1, 2, 3 … sequence until a moderator releases it: it takes a negative seq from
-- this sequence (unique in every conversation, so the unique (conversation_id, seq) index holds),
-- and leaves last_seq alone; its release gives it the conversation's next seq, under the row lock
-- sends take, so the visible sequence stays gapless.
CREATE SEQUENCE "chat_messages_held_seq" AS INTEGER;

-- A seq below 1 only while held. The new check is added NOT VALID: every existing row has
-- seq >= 1, which it accepts; new and updated rows are checked. The old check goes after it.
ALTER TABLE "chat_messages"
  ADD CONSTRAINT "chat_messages_seq_held_check" CHECK ("seq" >= 1 OR "held_at" IS NOT NULL) NOT VALID;
ALTER TABLE "chat_messages" DROP CONSTRAINT "chat_messages_seq_check";
