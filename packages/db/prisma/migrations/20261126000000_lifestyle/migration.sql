-- Lifestyle: dating profiles, curated content, announcements, meetings and their participants.

CREATE TABLE "dating_profiles" (
  "user_id" UUID NOT NULL,
  "visible" BOOLEAN NOT NULL,
  "bio" TEXT NOT NULL DEFAULT '',
  "interests" TEXT[] NOT NULL DEFAULT '{}',
  "birth_year" INTEGER,
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  "updated_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "dating_profiles_pkey" PRIMARY KEY ("user_id"),
  CONSTRAINT "dating_profiles_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
-- Browse: visible profiles in a stable order (first created first, then by user id). Partial:
-- hidden profiles are never browsed. Not expressible in schema.prisma.
CREATE INDEX "dating_profiles_visible_idx" ON "dating_profiles" ("created_at", "user_id") WHERE "visible";

CREATE TABLE "curated_content" (
  "id" UUID NOT NULL,
  "title" TEXT NOT NULL,
  "body" TEXT NOT NULL,
  "published_at" TIMESTAMPTZ(6) NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "curated_content_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "curated_content_published_at_id_idx" ON "curated_content" ("published_at" DESC, "id" DESC);

CREATE TABLE "announcements" (
  "id" UUID NOT NULL,
  "title" TEXT NOT NULL,
  "body" TEXT NOT NULL,
  "published" BOOLEAN NOT NULL,
  "published_at" TIMESTAMPTZ(6),
  "created_by" UUID NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "announcements_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "announcements_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "announcements_published_check" CHECK ("published" = ("published_at" IS NOT NULL))
);
CREATE INDEX "announcements_published_at_id_idx" ON "announcements" ("published_at" DESC, "id" DESC);

CREATE TABLE "meetings" (
  "id" UUID NOT NULL,
  "host_id" UUID NOT NULL,
  "title" TEXT NOT NULL,
  "starts_at" TIMESTAMPTZ(6) NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'scheduled',
  "ended_at" TIMESTAMPTZ(6),
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  "updated_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "meetings_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "meetings_host_id_fkey" FOREIGN KEY ("host_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "meetings_status_check" CHECK ("status" IN ('scheduled', 'active', 'ended')),
  CONSTRAINT "meetings_ended_check" CHECK (("status" = 'ended') = ("ended_at" IS NOT NULL))
);
-- The list (scheduled or active, soonest first) reads only open meetings. Not expressible in Prisma.
CREATE INDEX "meetings_open_starts_at_idx" ON "meetings" ("starts_at", "id") WHERE "status" <> 'ended';

CREATE TABLE "meeting_participants" (
  "id" UUID NOT NULL,
  "meeting_id" UUID NOT NULL,
  "user_id" UUID NOT NULL,
  "joined_at" TIMESTAMPTZ(6) NOT NULL,
  "left_at" TIMESTAMPTZ(6),
  CONSTRAINT "meeting_participants_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "meeting_participants_meeting_id_fkey" FOREIGN KEY ("meeting_id") REFERENCES "meetings" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "meeting_participants_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "meeting_participants_meeting_id_idx" ON "meeting_participants" ("meeting_id");
-- One active participation per user and meeting: a second join is the same participation.
CREATE UNIQUE INDEX "meeting_participants_active_key" ON "meeting_participants" ("meeting_id", "user_id")
  WHERE "left_at" IS NULL;
