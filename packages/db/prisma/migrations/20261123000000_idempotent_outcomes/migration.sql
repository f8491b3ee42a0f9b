-- Idempotency keys record the use case's outcome (its result or its domain error) instead of an
-- HTTP response, so the edge presents a replay exactly like a first answer. Keys recorded in the
-- old shape cannot be read back as outcomes; they are dropped (a retry of one runs again).

DELETE FROM "idempotency_keys";
ALTER TABLE "idempotency_keys" DROP COLUMN "response_status";
ALTER TABLE "idempotency_keys" DROP COLUMN "response_body";
ALTER TABLE "idempotency_keys" RENAME COLUMN "encrypted_secret" TO "sealed_secret";
ALTER TABLE "idempotency_keys" ADD COLUMN "outcome" JSONB NOT NULL;
