-- Media assets: the record of an upload to the object store. The bytes never pass through the
-- API; a row is created when a client asks for an upload URL (`pending`), confirmed against the
-- store (`uploaded`) before it is attached or read, and swept with its object when it was never
-- attached within 24 hours (`expired` marks a row whose object is being deleted).

CREATE TABLE "media_assets" (
  "id" UUID NOT NULL,
  "owner_id" UUID NOT NULL,
  "purpose" TEXT NOT NULL,
  "mime_type" TEXT NOT NULL,
  "size_bytes" INTEGER NOT NULL,
  "object_key" TEXT NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'pending',
  "visibility" TEXT NOT NULL DEFAULT 'private',
  "uploaded_at" TIMESTAMPTZ(6),
  "attached_at" TIMESTAMPTZ(6),
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "media_assets_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "media_assets_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "media_assets_purpose_check" CHECK ("purpose" IN ('moment', 'message', 'payment_evidence')),
  CONSTRAINT "media_assets_mime_type_check" CHECK ("mime_type" IN ('image/jpeg', 'image/png', 'image/webp', 'video/mp4')),
  CONSTRAINT "media_assets_size_bytes_check" CHECK ("size_bytes" BETWEEN 1 AND 10485760),
  CONSTRAINT "media_assets_status_check" CHECK ("status" IN ('pending', 'uploaded', 'expired')),
  CONSTRAINT "media_assets_visibility_check" CHECK ("visibility" IN ('private', 'public'))
);
CREATE UNIQUE INDEX "media_assets_object_key_key" ON "media_assets" ("object_key");
CREATE INDEX "media_assets_owner_id_idx" ON "media_assets" ("owner_id");
-- The orphan sweep: assets never attached, oldest first. Partial (Prisma cannot declare it):
-- attached assets, the bulk of the table, are not in it.
CREATE INDEX "media_assets_unattached_idx" ON "media_assets" ("created_at") WHERE "attached_at" IS NULL;
