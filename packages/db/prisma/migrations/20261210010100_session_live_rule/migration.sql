-- The live session, stated once. Until now the per-request checks (the bearer check, the bearer
-- check with the write limit's hit, the realtime sockets' session check, the order's own write)
-- wrote out `s.revoked_at IS NULL AND u.status = 'active'` (sessions.repository.ts's liveSession),
-- while the refresh also ended a session at its absolute age (SESSION_MAX_AGE_SECONDS from sign-in):
-- an access token issued just before that end kept working for its lifetime, and a socket stayed
-- open. It is now one SQL function, which every one of them calls:
--
--   session_live(revoked_at, created_at, user_status, max_age_seconds, at)
--     the session is not revoked (logout, theft, suspension, deletion), is younger than
--     `max_age_seconds` at `at` (`at - created_at < max_age`: at exactly its end it is over), and
--     its user's account is active. The first two arguments are the sessions row's, the third the
--     users row's status; the lifetime (SESSION_MAX_AGE_SECONDS, a setting) and the clock are
--     parameters.
--
-- A refresh token's own expiry and its reuse grace are the refresh's rules, decided in the domain
-- (refresh-session.ts) from the row it locks; the refresh asks this rule of the session through the
-- domain's mirror. The domain mirrors it with sessionLive (packages/domain/src/identity/
-- identity.policy.ts), and packages/db/test/session-live.int.test.ts proves the two agree on every
-- combination of the facts, that every query deciding liveness answers what the domain decides, and
-- that the statements (the per-request check and its counting form above all) plan as the
-- conditions written out did.
--
-- As the listing functions (20261203000000_listing_visibility_rule): an IMMUTABLE `LANGUAGE sql`
-- function whose body is one SQL-standard expression (RETURN), neither STRICT nor with a SET
-- clause, so PostgreSQL inlines it where it is called and the plans are those of the conditions
-- written out. That holds only while everything in the expression is immutable (an inlined
-- IMMUTABLE function may call nothing less) and there is no sub-SELECT, which is why the facts are
-- passed in (the user's status, not a lookup of it) and why the age is `at - created_at`
-- (timestamptz - timestamptz is immutable; timestamptz - interval is only stable, as it depends on
-- the time zone) compared with make_interval(secs => …) (immutable).
--
-- Changing the rule: write a new migration with CREATE OR REPLACE FUNCTION (a new fact is a new
-- argument, so a new signature: drop the old function after its callers have moved), change
-- sessionLive with it, and run the agreement test. No index or trigger calls this function; if one
-- ever does, the migration must rebuild it as well.

CREATE FUNCTION "session_live"(
  "revoked_at" TIMESTAMPTZ, "created_at" TIMESTAMPTZ, "user_status" TEXT, "max_age_seconds" INTEGER,
  "at" TIMESTAMPTZ
) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN "revoked_at" IS NULL AND "user_status" = 'active'
   AND "at" - "created_at" < make_interval(secs => "max_age_seconds");
