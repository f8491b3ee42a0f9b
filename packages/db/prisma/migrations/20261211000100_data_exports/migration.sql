-- Data exports (docs/accounts.md, "Your data"): one JSON document of what an account holds,
-- built by the outbox worker, stored privately in the object store and downloadable for 24 hours.
-- At most one request a day per account: the requesting transaction locks the user's row, then reads
-- the newest request (the index below).
CREATE TABLE "data_exports" (
  "id" UUID NOT NULL,
  "user_id" UUID NOT NULL,
  -- pending (queued) | ready (downloadable until expires_at) | expired (object deleted) | failed
  "status" TEXT NOT NULL DEFAULT 'pending',
  "requested_at" TIMESTAMPTZ(6) NOT NULL,
  "ready_at" TIMESTAMPTZ(6),
  "expires_at" TIMESTAMPTZ(6),
  "object_key" TEXT,
  "size_bytes" INTEGER,
  -- SHA-256 of the mailed link's random token (the mail cannot carry a bearer token).
  "download_token_hash" TEXT,
  CONSTRAINT "data_exports_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "data_exports_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "data_exports_status_check" CHECK ("status" IN ('pending', 'ready', 'expired', 'failed'))
);
CREATE UNIQUE INDEX "data_exports_download_token_hash_key" ON "data_exports" ("download_token_hash");
CREATE INDEX "data_exports_user_id_requested_at_idx" ON "data_exports" ("user_id", "requested_at" DESC);
