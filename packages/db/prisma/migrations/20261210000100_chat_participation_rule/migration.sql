-- Chat participation and blocks, stated once (the pattern of
-- 20261203000000_listing_visibility_rule). Until now the statements wrote participation out, and
-- the send statement reported its facts for the domain policy to decide in the repository. The
-- rules are now two SQL functions over facts:
--
--   chat_participant(user_id, user_a_id, user_b_id)
--     participation: a conversation (the pair user_a_id, user_b_id) is its two participants'.
--     Only they read its messages, send to it, move their read marker in it or open its realtime
--     channel; anyone else is answered as if it did not exist (404). participantSql
--     (packages/db/src/repositories/chat/conversations.repository.ts) calls it in every statement
--     that finds a conversation for a user.
--   chat_send_refusal(participant, blocked_either_way)
--     why a send stores nothing: 'not_found' when the sender is not a participant (first, so a
--     stranger learns nothing of the pair's blocks), 'blocked' while either participant blocks the
--     other; NULL when the send goes ahead. An unknown fact (NULL) refuses. The send statement
--     (messages.repository.ts) stores the message only when it is NULL and returns it, which the
--     repository maps to its outcome; the typing signal (chat-connections.repository.ts), sent by
--     a participant (its socket's grant), is passed on only when it is NULL.
--
-- The facts are gathered by the statements (the conversation row, locked by the send; a NOT
-- EXISTS on user_blocks) and passed to the functions; the decision is the functions'.
--
-- The domain mirrors both with functions of the same names (chatParticipant and chatSendRefusal in
-- packages/domain/src/chat/chat.policy.ts), and packages/db/test/chat-participation.int.test.ts
-- proves they agree on every combination of the facts and that the send statement answers what
-- the domain decides.
--
-- Both are IMMUTABLE `LANGUAGE sql` functions with a single SQL-standard expression (RETURN) as
-- body, neither STRICT nor with a SET clause, without a sub-SELECT: PostgreSQL inlines them
-- wherever they are called, and the plans are the ones the written-out conditions had.
-- (chat_participant says `user_id = user_a_id OR user_id = user_b_id`, which is what PostgreSQL
-- made of the `user IN (c.user_a_id, c.user_b_id)` the statements wrote: the IN of a function's
-- parameters would be parsed as `= ANY (ARRAY[…])` instead.)
--
-- Changing a rule: write a new migration that replaces the function (CREATE OR REPLACE, same
-- arguments and result type) and change the mirror with it; no index or stored value depends on
-- them.

CREATE FUNCTION "chat_participant"("user_id" UUID, "user_a_id" UUID, "user_b_id" UUID)
RETURNS BOOLEAN LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN "user_id" = "user_a_id" OR "user_id" = "user_b_id";

CREATE FUNCTION "chat_send_refusal"("participant" BOOLEAN, "blocked_either_way" BOOLEAN)
RETURNS TEXT LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN "participant" IS NOT TRUE THEN 'not_found'
            WHEN "blocked_either_way" IS NOT FALSE THEN 'blocked'
       END;
