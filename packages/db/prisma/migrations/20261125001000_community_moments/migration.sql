-- The community: moments with their media, likes, views, comments and reports. Counters live on
-- the moment and are changed in the same transaction as the like, view or comment that moves them.

CREATE TABLE "moments" (
  "id" UUID NOT NULL,
  "author_id" UUID NOT NULL,
  "body" TEXT,
  "visibility" TEXT NOT NULL DEFAULT 'public',
  "like_count" INTEGER NOT NULL DEFAULT 0,
  "view_count" INTEGER NOT NULL DEFAULT 0,
  "comment_count" INTEGER NOT NULL DEFAULT 0,
  "hidden_at" TIMESTAMPTZ(6),
  "hidden_by" UUID,
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "moments_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "moments_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "moments_hidden_by_fkey" FOREIGN KEY ("hidden_by") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "moments_visibility_check" CHECK ("visibility" IN ('public')),
  CONSTRAINT "moments_body_check" CHECK (char_length("body") <= 2000),
  CONSTRAINT "moments_counters_check" CHECK ("like_count" >= 0 AND "view_count" >= 0 AND "comment_count" >= 0)
);
-- The feed: newest first, paged back with a (created_at, id) cursor.
CREATE INDEX "moments_created_at_id_idx" ON "moments" ("created_at" DESC, "id" DESC);
CREATE INDEX "moments_author_id_idx" ON "moments" ("author_id");

-- A moment's media, in the order given; an asset is attached to one moment at most.
CREATE TABLE "moment_media" (
  "moment_id" UUID NOT NULL,
  "position" SMALLINT NOT NULL,
  "media_asset_id" UUID NOT NULL,
  CONSTRAINT "moment_media_pkey" PRIMARY KEY ("moment_id", "position"),
  CONSTRAINT "moment_media_moment_id_fkey" FOREIGN KEY ("moment_id") REFERENCES "moments" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "moment_media_media_asset_id_fkey" FOREIGN KEY ("media_asset_id") REFERENCES "media_assets" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "moment_media_position_check" CHECK ("position" BETWEEN 0 AND 4)
);
CREATE UNIQUE INDEX "moment_media_media_asset_id_key" ON "moment_media" ("media_asset_id");

-- One like per user and moment (the primary key makes a repeated or parallel like a no-op).
CREATE TABLE "moment_likes" (
  "moment_id" UUID NOT NULL,
  "user_id" UUID NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "moment_likes_pkey" PRIMARY KEY ("moment_id", "user_id"),
  CONSTRAINT "moment_likes_moment_id_fkey" FOREIGN KEY ("moment_id") REFERENCES "moments" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "moment_likes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
-- A user's likes: the feed's "liked by me" reads them for its page (the planner may hash them).
CREATE INDEX "moment_likes_user_id_moment_id_idx" ON "moment_likes" ("user_id", "moment_id");

-- One view per user and moment.
CREATE TABLE "moment_views" (
  "moment_id" UUID NOT NULL,
  "user_id" UUID NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "moment_views_pkey" PRIMARY KEY ("moment_id", "user_id"),
  CONSTRAINT "moment_views_moment_id_fkey" FOREIGN KEY ("moment_id") REFERENCES "moments" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "moment_views_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

CREATE TABLE "moment_comments" (
  "id" UUID NOT NULL,
  "moment_id" UUID NOT NULL,
  "author_id" UUID NOT NULL,
  "body" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "moment_comments_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "moment_comments_moment_id_fkey" FOREIGN KEY ("moment_id") REFERENCES "moments" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "moment_comments_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "moment_comments_body_check" CHECK (char_length("body") BETWEEN 1 AND 2000)
);
-- A moment's comments, newest first, paged back with a (created_at, id) cursor.
CREATE INDEX "moment_comments_moment_id_created_at_id_idx" ON "moment_comments" ("moment_id", "created_at" DESC, "id" DESC);

-- A member's report of a moment, for the moderators. `reviewer_id`, `resolution_note`,
-- `reviewed_at` and `resolved_at` are written by the moderation routes (administration).
CREATE TABLE "moment_reports" (
  "id" UUID NOT NULL,
  "moment_id" UUID NOT NULL,
  "reporter_id" UUID NOT NULL,
  "reason" TEXT NOT NULL,
  "note" TEXT,
  "status" TEXT NOT NULL DEFAULT 'open',
  "reviewer_id" UUID,
  "resolution_note" TEXT,
  "reviewed_at" TIMESTAMPTZ(6),
  "resolved_at" TIMESTAMPTZ(6),
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  "updated_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "moment_reports_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "moment_reports_moment_id_fkey" FOREIGN KEY ("moment_id") REFERENCES "moments" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "moment_reports_reporter_id_fkey" FOREIGN KEY ("reporter_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "moment_reports_reviewer_id_fkey" FOREIGN KEY ("reviewer_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "moment_reports_reason_check" CHECK ("reason" IN ('spam', 'abuse', 'illegal', 'other')),
  CONSTRAINT "moment_reports_status_check" CHECK ("status" IN ('open', 'reviewing', 'resolved', 'dismissed')),
  CONSTRAINT "moment_reports_note_check" CHECK (char_length("note") <= 2000),
  CONSTRAINT "moment_reports_resolution_note_check" CHECK (char_length("resolution_note") <= 2000)
);
-- One open report (open or reviewing) per reporter and moment. Partial (Prisma cannot declare
-- it): once resolved or dismissed, the same reporter may report the moment again.
CREATE UNIQUE INDEX "moment_reports_one_open_idx" ON "moment_reports" ("moment_id", "reporter_id")
  WHERE "status" IN ('open', 'reviewing');
-- The moderators' queue: by status, oldest first.
CREATE INDEX "moment_reports_status_created_at_idx" ON "moment_reports" ("status", "created_at");
