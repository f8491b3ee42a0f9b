-- What a member's session list shows (docs/accounts.md, "Your sessions"): where and on what the
-- session began, and when it was last used.
--
--   platform      ios | android | web, as the client sent it at sign-in (null when it sent none)
--   user_agent    the sign-in request's User-Agent (at most 256 characters; null without one)
--   address_hint  the sign-in address's network, never the address: its /24 (IPv4) or /48 (IPv6)
--   last_used_at  the last request made with the session's access tokens, to the minute: each
--                 process holds the times in memory and writes them once a minute in one statement
--                 (session-activity.ts), so the per-request check stays a read. Null until then
--                 (the list shows created_at).
--
-- Nullable columns without a default: adding them rewrites nothing and takes the table's lock only
-- for the catalog change. The list and the new-sign-in check read a user's sessions through the
-- existing index on user_id.
ALTER TABLE sessions ADD COLUMN last_used_at TIMESTAMPTZ(6);
ALTER TABLE sessions ADD COLUMN platform TEXT;
ALTER TABLE sessions ADD COLUMN user_agent TEXT;
ALTER TABLE sessions ADD COLUMN address_hint TEXT;
