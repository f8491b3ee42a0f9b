-- Moment visibility and author presence, stated once (the pattern of
-- 20261203000000_listing_visibility_rule). Until now each was written out in the statements that
-- read moments, comments, dating profiles and media. They are now two SQL functions over facts:
--
--   author_present(status)
--     an account's records (moments, comments, dating profile, logo, avatar, its listings through
--     owner_active) are visible to others while the account is active: a suspended or deleted
--     author leaves every read by others and comes back on reactivation (docs/safety.md,
--     "Suspension removes an author's presence"). `status` is the author's users.status.
--   moment_visible_if_unblocked(is_author, hidden, author_present)
--     who sees a moment, blocks aside: its author always; anyone else while moderation has not
--     hidden it and its author is present.
--
-- The whole moment rule is the second AND the block rule (no block either way between the viewer
-- and the author), which stays what it is, a NOT EXISTS on user_blocks written beside the call
-- (notBlockedSql; momentVisibleToSql in packages/db/src/repositories/community/moment-queries.ts
-- assembles the two for every read). Why the block is not a fifth argument: PostgreSQL turns a
-- NOT EXISTS of the WHERE into an anti join before it inlines functions, so a NOT EXISTS passed
-- as an argument would stay a subplan run per candidate row (two index probes each), where the
-- feed now reads the viewer's blocks once per page (a Nested Loop Anti Join over them). The
-- queries gather the facts (the author's users row, which the feed joins; an EXISTS on users
-- elsewhere) and pass them to the functions; the decision is the functions'.
--
-- The domain mirrors both with functions of the same names (authorPresent in
-- packages/domain/src/identity/identity.policy.ts; momentVisibleIfUnblocked, and the whole rule
-- momentVisible, in packages/domain/src/community/moments.policy.ts), and
-- packages/db/test/moment-visibility.int.test.ts proves they agree on every combination of the
-- facts, that the feed returns exactly the moments the domain calls visible, and that the feed
-- plans exactly as the conditions written out did.
--
-- Both are IMMUTABLE `LANGUAGE sql` functions with a single SQL-standard expression (RETURN) as
-- body, neither STRICT nor with a SET clause, without a sub-SELECT: PostgreSQL inlines them
-- wherever they are called, and the plans are the ones the written-out conditions had.
--
-- Changing the rule: write a new migration that replaces the functions (CREATE OR REPLACE, same
-- arguments) and change the mirrors with it; no index or stored value depends on them.

CREATE FUNCTION "author_present"("status" TEXT) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN "status" = 'active';

CREATE FUNCTION "moment_visible_if_unblocked"(
  "is_author" BOOLEAN, "hidden" BOOLEAN, "author_present" BOOLEAN
) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN "is_author" OR (NOT "hidden" AND "author_present");
