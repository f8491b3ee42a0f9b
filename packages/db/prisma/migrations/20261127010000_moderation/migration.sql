-- The moderation reports export walks reports oldest first by keyset (created_at, id);
-- the overview counts hidden moments.
CREATE INDEX "moment_reports_created_at_id_idx" ON "moment_reports" ("created_at", "id");
CREATE INDEX "moments_hidden_at_idx" ON "moments" ("hidden_at");
