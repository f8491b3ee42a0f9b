-- What /metrics reads at every scrape (readOutboxFigures), without touching delivered history.
-- Partial indexes, not expressible in Prisma:
-- the pending rows by age: their count, and the oldest pending event as the first entry.
CREATE INDEX "outbox_events_pending_created_at_idx" ON "outbox_events" ("created_at")
  WHERE "processed_at" IS NULL AND "dead_at" IS NULL;
-- dead letters (kept until re-driven): their count, and `outbox retry` finding them.
CREATE INDEX "outbox_events_dead_idx" ON "outbox_events" ("dead_at")
  WHERE "dead_at" IS NOT NULL;
