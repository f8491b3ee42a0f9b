-- Reports of anything, edits kept for moderators, and content held by a filter (docs/safety.md:
-- "Reports", "Filters", "Your own content"). Expand only: the previous release keeps reading and
-- writing moment_reports while this one runs beside it.
--
-- reports: one table of reports on every target, a member's (one open report, open or reviewing,
-- per reporter and target) or a filter rule's (source `filter`, no reporter).
--   target_type      moment | comment | message | user | dating_profile | listing | meeting
--   target_id        the reported record's id; no foreign key: a report outlives its target (a
--                    deleted moment's reports stay readable to moderators)
--   target_owner_id  whose record it is (author, sender, owner, host, the user), when known
--   category         spam | harassment | hate | sexual | violence | self_harm | illegal |
--                    impersonation | scam | other
--   reason           spam | abuse | illegal | other: the moment report route's field (its body's
--                    `reason`); for other reports mapped from the category
--   snapshot         what was reported, as it was then (body, media ids, names), so the report
--                    stays readable when the record is edited or deleted
--   decision         the moderation action that closed it
-- moment_reports is no longer written by this release: rows the previous release writes there
-- during a rollout (and its moves of them) are copied here by a trigger. A later release drops it.
CREATE TABLE "reports" (
  "id" UUID NOT NULL,
  "target_type" TEXT NOT NULL,
  "target_id" UUID NOT NULL,
  "target_owner_id" UUID,
  "reporter_id" UUID,
  "source" TEXT NOT NULL DEFAULT 'member',
  "filter_rule_id" UUID,
  "category" TEXT NOT NULL,
  "reason" TEXT NOT NULL,
  "note" TEXT,
  "snapshot" JSONB,
  "status" TEXT NOT NULL DEFAULT 'open',
  "reviewer_id" UUID,
  "resolution_note" TEXT,
  "decision" TEXT,
  "reviewed_at" TIMESTAMPTZ(6),
  "resolved_at" TIMESTAMPTZ(6),
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  "updated_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "reports_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "reports_reporter_id_fkey" FOREIGN KEY ("reporter_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "reports_reviewer_id_fkey" FOREIGN KEY ("reviewer_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "reports_target_type_check"
    CHECK ("target_type" IN ('moment', 'comment', 'message', 'user', 'dating_profile', 'listing', 'meeting')),
  CONSTRAINT "reports_category_check"
    CHECK ("category" IN ('spam', 'harassment', 'hate', 'sexual', 'violence', 'self_harm', 'illegal',
                          'impersonation', 'scam', 'other')),
  CONSTRAINT "reports_reason_check" CHECK ("reason" IN ('spam', 'abuse', 'illegal', 'other')),
  CONSTRAINT "reports_source_check" CHECK ("source" IN ('member', 'filter')),
  CONSTRAINT "reports_reporter_check" CHECK (("source" = 'member') = ("reporter_id" IS NOT NULL)),
  CONSTRAINT "reports_status_check" CHECK ("status" IN ('open', 'reviewing', 'resolved', 'dismissed')),
  CONSTRAINT "reports_note_check" CHECK (char_length("note") <= 2000),
  CONSTRAINT "reports_resolution_note_check" CHECK (char_length("resolution_note") <= 2000)
);
-- One open report per reporter and target, and one open filter report per target and rule.
-- Partial: Prisma cannot declare them.
CREATE UNIQUE INDEX "reports_one_open_idx" ON "reports" ("target_type", "target_id", "reporter_id")
  WHERE "status" IN ('open', 'reviewing');
CREATE UNIQUE INDEX "reports_one_open_filter_idx" ON "reports" ("target_type", "target_id", "filter_rule_id")
  WHERE "status" IN ('open', 'reviewing') AND "source" = 'filter';
-- A target's reports: a decision closes them all; the queue groups by target.
CREATE INDEX "reports_target_idx" ON "reports" ("target_type", "target_id", "status");
-- The queue by status, oldest first; pages in creation order.
CREATE INDEX "reports_status_created_at_idx" ON "reports" ("status", "created_at");
CREATE INDEX "reports_created_at_id_idx" ON "reports" ("created_at", "id");
-- The age of the oldest undecided report (the 24-hour watch). Partial: Prisma cannot declare it.
CREATE INDEX "reports_undecided_created_at_idx" ON "reports" ("created_at")
  WHERE "status" IN ('open', 'reviewing');

-- Copies a moment_reports row (the previous release's write) into reports, or its move.
CREATE FUNCTION "moment_reports_copy"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "reports" ("id", "target_type", "target_id", "target_owner_id", "reporter_id", "category",
                         "reason", "note", "status", "reviewer_id", "resolution_note", "reviewed_at",
                         "resolved_at", "created_at", "updated_at")
  VALUES (NEW."id", 'moment', NEW."moment_id",
          (SELECT m."author_id" FROM "moments" m WHERE m."id" = NEW."moment_id"), NEW."reporter_id",
          CASE NEW."reason" WHEN 'abuse' THEN 'harassment' ELSE NEW."reason" END, NEW."reason", NEW."note",
          NEW."status", NEW."reviewer_id", NEW."resolution_note", NEW."reviewed_at", NEW."resolved_at",
          NEW."created_at", NEW."updated_at")
  ON CONFLICT ("id") DO UPDATE
     SET "status" = EXCLUDED."status", "reviewer_id" = EXCLUDED."reviewer_id",
         "resolution_note" = EXCLUDED."resolution_note", "reviewed_at" = EXCLUDED."reviewed_at",
         "resolved_at" = EXCLUDED."resolved_at", "updated_at" = EXCLUDED."updated_at";
  RETURN NULL;
END;
$$;
CREATE TRIGGER "moment_reports_copy" AFTER INSERT OR UPDATE ON "moment_reports"
  FOR EACH ROW EXECUTE FUNCTION "moment_reports_copy"();

INSERT INTO "reports" ("id", "target_type", "target_id", "target_owner_id", "reporter_id", "category",
                       "reason", "note", "status", "reviewer_id", "resolution_note", "reviewed_at",
                       "resolved_at", "created_at", "updated_at")
SELECT r."id", 'moment', r."moment_id", m."author_id", r."reporter_id",
       CASE r."reason" WHEN 'abuse' THEN 'harassment' ELSE r."reason" END, r."reason", r."note", r."status",
       r."reviewer_id", r."resolution_note", r."reviewed_at", r."resolved_at", r."created_at", r."updated_at"
  FROM "moment_reports" r
  JOIN "moments" m ON m."id" = r."moment_id";

-- Edits: the text a moment or comment had before each edit, for moderators only (the report view).
CREATE TABLE "content_edits" (
  "id" UUID NOT NULL,
  "target_type" TEXT NOT NULL,
  "target_id" UUID NOT NULL,
  "author_id" UUID NOT NULL,
  "body" TEXT,
  "edited_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "content_edits_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "content_edits_target_type_check" CHECK ("target_type" IN ('moment', 'comment')),
  CONSTRAINT "content_edits_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "content_edits_target_idx" ON "content_edits" ("target_type", "target_id", "edited_at");
CREATE INDEX "content_edits_author_id_idx" ON "content_edits" ("author_id");

-- edited_at: the last edit by the author (null: never edited).
ALTER TABLE "moments" ADD COLUMN "edited_at" TIMESTAMPTZ(6);
ALTER TABLE "moment_comments" ADD COLUMN "edited_at" TIMESTAMPTZ(6);

-- held_at: a filter rule with action `hold` keeps the record visible to its author only until a
-- moderator approves it (null: not held). Nullable without a default: no rewrite.
ALTER TABLE "moments" ADD COLUMN "held_at" TIMESTAMPTZ(6);
ALTER TABLE "moment_comments" ADD COLUMN "held_at" TIMESTAMPTZ(6);
ALTER TABLE "chat_messages" ADD COLUMN "held_at" TIMESTAMPTZ(6);
ALTER TABLE "dating_profiles" ADD COLUMN "held_at" TIMESTAMPTZ(6);
ALTER TABLE "listings" ADD COLUMN "held_at" TIMESTAMPTZ(6);
ALTER TABLE "menu_items" ADD COLUMN "held_at" TIMESTAMPTZ(6);
