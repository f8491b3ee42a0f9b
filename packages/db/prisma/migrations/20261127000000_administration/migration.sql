-- Administration: accountant assignments, a fuller and append-only audit trail, and the indexes
-- the admin collections filter and count on.

CREATE TABLE "accountant_services" (
  "accountant_id" UUID NOT NULL,
  "service_id" UUID NOT NULL,
  "assigned_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "accountant_services_pkey" PRIMARY KEY ("accountant_id", "service_id"),
  CONSTRAINT "accountant_services_accountant_id_fkey" FOREIGN KEY ("accountant_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "accountant_services_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "services" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "accountant_services_service_id_idx" ON "accountant_services" ("service_id");

-- Every audit event names the fields it changed (before and after) and the request that did it.
ALTER TABLE "audit_events" ADD COLUMN "before" JSONB;
ALTER TABLE "audit_events" ADD COLUMN "after" JSONB;
ALTER TABLE "audit_events" ADD COLUMN "request_id" TEXT;
CREATE INDEX "audit_events_actor_id_created_at_idx" ON "audit_events" ("actor_id", "created_at" DESC);
CREATE INDEX "audit_events_action_created_at_idx" ON "audit_events" ("action", "created_at" DESC);

-- The audit trail is append-only: no UPDATE or DELETE, whoever asks (privileges alone would not
-- bind the table's owner, which is the role the service connects as).
CREATE FUNCTION "audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_append_only"();
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_append_only"();

-- Admin collections: substring search (ILIKE '%q%', case-insensitive) on the fields each kind
-- documents, through trigram indexes; lists newest first, filtered by status.
CREATE INDEX "users_email_trgm_idx" ON "users" USING GIN ("email" gin_trgm_ops);
CREATE INDEX "users_display_name_trgm_idx" ON "users" USING GIN ("display_name" gin_trgm_ops);
CREATE INDEX "users_created_at_id_idx" ON "users" ("created_at" DESC, "id" DESC);
CREATE INDEX "users_role_created_at_idx" ON "users" ("role", "created_at" DESC);
CREATE INDEX "provider_profiles_display_name_trgm_idx" ON "provider_profiles" USING GIN ("display_name" gin_trgm_ops);
CREATE INDEX "listings_search_text_trgm_idx" ON "listings" USING GIN ("search_text" gin_trgm_ops);
CREATE INDEX "listings_status_created_at_idx" ON "listings" ("status", "created_at" DESC);
CREATE INDEX "orders_item_name_trgm_idx" ON "orders" USING GIN ("item_name" gin_trgm_ops);
CREATE INDEX "orders_guest_email_trgm_idx" ON "orders" USING GIN ("guest_email" gin_trgm_ops);
CREATE INDEX "orders_status_created_at_id_idx" ON "orders" ("status", "created_at" DESC, "id" DESC);
CREATE INDEX "orders_created_at_id_idx" ON "orders" ("created_at" DESC, "id" DESC);
CREATE INDEX "payments_status_created_at_idx" ON "payments" ("status", "created_at" DESC);
CREATE INDEX "payments_created_at_id_idx" ON "payments" ("created_at" DESC, "id" DESC);
CREATE INDEX "payments_payer_id_idx" ON "payments" ("payer_id");
