import type { Database } from "@agora/db/client";
import { createDeliveryRepositories } from "@agora/db/repositories/delivery.repository";
import { createHousekeeper } from "@agora/db/repositories/housekeeping.repository";
import { createOutboxStore } from "@agora/db/repositories/outbox-store.repository";
import type { DeliveryDeps, OutboxOutcome } from "@agora/domain/delivery/delivery.deps";
import type { PushSender } from "@agora/domain/delivery/delivery.ports";
import type { Clock } from "@agora/domain/shared/clock";
import { type PurgeCounts, runHousekeeping } from "@agora/domain/shared/housekeeping";
import type { IdGenerator } from "@agora/domain/shared/ids";
import type { Logger } from "pino";

/** Logs what the outbox loop reports: retries as warnings, dead letters and store failures as errors. */
export const logOutboxOutcome =
  (logger: Logger) =>
  (outcome: OutboxOutcome): void => {
    switch (outcome.type) {
      case "processed":
        logger.debug({ event_id: outcome.event.id, kind: outcome.event.kind }, "outbox event delivered");
        break;
      case "retry":
        logger.warn(
          {
            event_id: outcome.event.id,
            kind: outcome.event.kind,
            attempts: outcome.attempts,
            retry_at: outcome.retryAt.toISOString(),
            error: outcome.error,
          },
          "outbox delivery failed; will retry",
        );
        break;
      case "dead":
        logger.error(
          {
            event_id: outcome.event.id,
            kind: outcome.event.kind,
            attempts: outcome.attempts,
            error: outcome.error,
          },
          "outbox event dead-lettered (pnpm agora outbox retry re-drives it)",
        );
        break;
      case "record_failed":
        logger.error(
          { event_id: outcome.event.id, kind: outcome.event.kind, error: outcome.error },
          "outbox outcome not recorded; the event is delivered again after its lease",
        );
        break;
      case "claim_failed":
        logger.error({ error: outcome.error }, "outbox claim failed; retrying");
        break;
      default: {
        const unknown: never = outcome;
        logger.error({ outcome: unknown }, "unknown outbox outcome");
      }
    }
  };

/** Delivery (outbox worker, inbox, devices) over the database; `push` undefined = push off. */
export const createDeliveryDeps = (options: {
  database: Database;
  clock: Clock;
  ids: IdGenerator;
  push: PushSender | undefined;
  logger: Logger;
}): DeliveryDeps => {
  const { database, clock, ids, push, logger } = options;
  const repos = createDeliveryRepositories(database.sql, ids);

  return {
    outbox: createOutboxStore(database.sql),
    notifications: repos.notifications,
    devices: repos.devices,
    push,
    clock,
    ids,
    random: Math.random,
    observe: logOutboxOutcome(logger),
  };
};

/** The housekeeping loop's reports, as log lines. */
export const logHousekeeping =
  (logger: Logger) =>
  (result: PurgeCounts | Error): void => {
    if (result instanceof Error) {
      logger.error({ err: result }, "housekeeping failed; will try again");

      return;
    }
    if (Object.values(result).some((count) => count > 0)) {
      logger.info({ purged: result }, "housekeeping");
    }
  };

/** Housekeeping (see Housekeeper) every ten minutes on `database`, until `signal` aborts. */
export const startHousekeeping = (options: {
  database: Database;
  clock: Clock;
  logger: Logger;
  signal: AbortSignal;
}) =>
  runHousekeeping(
    { housekeeper: createHousekeeper(options.database.sql), clock: options.clock },
    { signal: options.signal, report: logHousekeeping(options.logger) },
  );
