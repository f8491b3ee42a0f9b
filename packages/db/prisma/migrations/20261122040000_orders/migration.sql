-- Orders, their completion snapshots, manual payments, and idempotency keys.

CREATE TABLE "orders" (
  "id" UUID NOT NULL,
  "customer_id" UUID,
  "guest_email" TEXT,
  "guest_phone" TEXT,
  "guest_token_hash" TEXT,
  "guest_token_expires_at" TIMESTAMPTZ(6),
  "provider_id" UUID NOT NULL,
  "listing_id" UUID NOT NULL,
  "menu_item_id" UUID NOT NULL,
  "item_name" TEXT NOT NULL,
  "unit_price_amount" BIGINT NOT NULL,
  "quantity" INTEGER NOT NULL,
  "total_amount" BIGINT NOT NULL,
  "currency" CHAR(3) NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'pending',
  "payment_status" TEXT NOT NULL DEFAULT 'unpaid',
  "version" INTEGER NOT NULL DEFAULT 1,
  "notes" TEXT,
  "schedule_at" TIMESTAMPTZ(6),
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  "updated_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "orders_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "orders_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
  CONSTRAINT "orders_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "provider_profiles" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "orders_listing_id_fkey" FOREIGN KEY ("listing_id") REFERENCES "listings" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "orders_menu_item_id_fkey" FOREIGN KEY ("menu_item_id") REFERENCES "menu_items" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "orders_status_check" CHECK ("status" IN ('pending', 'confirmed', 'in_progress', 'completed', 'cancelled')),
  CONSTRAINT "orders_payment_status_check" CHECK ("payment_status" IN ('unpaid', 'payment_submitted', 'payment_confirmed', 'payment_rejected', 'refunded')),
  CONSTRAINT "orders_quantity_check" CHECK ("quantity" BETWEEN 1 AND 100),
  CONSTRAINT "orders_amounts_check" CHECK ("unit_price_amount" >= 0 AND "total_amount" >= 0),
  CONSTRAINT "orders_version_check" CHECK ("version" >= 1),
  CONSTRAINT "orders_customer_or_guest_check" CHECK ("customer_id" IS NOT NULL OR ("guest_email" IS NOT NULL AND "guest_token_hash" IS NOT NULL))
);
CREATE UNIQUE INDEX "orders_guest_token_hash_key" ON "orders" ("guest_token_hash");
CREATE INDEX "orders_customer_id_created_at_id_idx" ON "orders" ("customer_id", "created_at" DESC, "id" DESC);
CREATE INDEX "orders_provider_id_created_at_id_idx" ON "orders" ("provider_id", "created_at" DESC, "id" DESC);

CREATE TABLE "completed_orders" (
  "id" UUID NOT NULL,
  "order_id" UUID NOT NULL,
  "provider_id" UUID NOT NULL,
  "data" JSONB NOT NULL,
  "completed_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "completed_orders_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "completed_orders_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "completed_orders_order_id_key" ON "completed_orders" ("order_id");

-- The primary sale of a completed order (sales.order_id is already unique).
ALTER TABLE "sales" ADD CONSTRAINT "sales_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders" ("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "payments" (
  "id" UUID NOT NULL,
  "purpose" TEXT NOT NULL,
  "order_id" UUID,
  "listing_id" UUID,
  "payer_id" UUID NOT NULL,
  "amount" BIGINT NOT NULL,
  "currency" CHAR(3) NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'unpaid',
  "method" TEXT NOT NULL,
  "version" INTEGER NOT NULL DEFAULT 1,
  "plan_duration_days" INTEGER,
  "evidence_media_asset_id" UUID,
  "evidence_note" TEXT,
  "submitted_at" TIMESTAMPTZ(6),
  "decided_at" TIMESTAMPTZ(6),
  "decided_by" UUID,
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  "updated_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "payments_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "payments_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "payments_listing_id_fkey" FOREIGN KEY ("listing_id") REFERENCES "listings" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "payments_payer_id_fkey" FOREIGN KEY ("payer_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "payments_purpose_check" CHECK (
    ("purpose" = 'order' AND "order_id" IS NOT NULL AND "listing_id" IS NULL)
    OR ("purpose" = 'listing_subscription' AND "listing_id" IS NOT NULL AND "order_id" IS NULL)),
  CONSTRAINT "payments_status_check" CHECK ("status" IN ('unpaid', 'payment_submitted', 'payment_confirmed', 'payment_rejected', 'refunded')),
  CONSTRAINT "payments_method_check" CHECK ("method" IN ('walletone_qr', 'wallettwo_qr')),
  CONSTRAINT "payments_amount_check" CHECK ("amount" >= 0),
  CONSTRAINT "payments_version_check" CHECK ("version" >= 1)
);
CREATE INDEX "payments_order_id_idx" ON "payments" ("order_id");
CREATE INDEX "payments_listing_id_idx" ON "payments" ("listing_id");
CREATE INDEX "payments_status_idx" ON "payments" ("status");
-- One open payment per order (a confirmed one closes it) and per listing subscription; partial
-- unique indexes, which Prisma cannot declare.
CREATE UNIQUE INDEX "payments_one_per_order_idx" ON "payments" ("order_id")
  WHERE "purpose" = 'order' AND "status" <> 'refunded';
CREATE UNIQUE INDEX "payments_one_open_per_listing_idx" ON "payments" ("listing_id")
  WHERE "purpose" = 'listing_subscription' AND "status" IN ('unpaid', 'payment_submitted', 'payment_rejected');

CREATE TABLE "idempotency_keys" (
  "scope" TEXT NOT NULL,
  "route" TEXT NOT NULL,
  "key" TEXT NOT NULL,
  "fingerprint" TEXT NOT NULL,
  "response_status" INTEGER NOT NULL,
  "response_body" JSONB NOT NULL,
  "encrypted_secret" TEXT,
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  "expires_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("scope", "route", "key")
);
CREATE INDEX "idempotency_keys_expires_at_idx" ON "idempotency_keys" ("expires_at");
