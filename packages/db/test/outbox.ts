import { uuidV7Ids } from "@agora/domain/common/ids";
import type { NewOutboxEvent } from "@agora/domain/outbox/outbox.types";
import { createOutboxWriter } from "../src/repositories/outbox/outbox-events.repository";
import type { SqlExecutor } from "../src/sql";

/**
 * Writes an event to the outbox as a use case does (OutboxWriter.append), due at `at` (now unless
 * given), and resolves to its id. Build the event with its kind's constructor, so its payload is
 * the kind's own: `appendOutboxEvent(db.sql, orderCreated.event(orderId, { ... }))`. Only a test
 * of rows no kind writes (an unknown kind, a malformed payload, a dead or processed row) writes
 * SQL of its own.
 */
export const appendOutboxEvent = (
  sql: SqlExecutor,
  event: NewOutboxEvent,
  at = new Date(),
): Promise<string> => createOutboxWriter(sql, uuidV7Ids).append(event, at);
