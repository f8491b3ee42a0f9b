// What the background loops (outbox worker, housekeeping) report, as log lines: the domain never
// logs, it reports through `observe` callbacks and the processes log here.

import type { PurgeCounts } from "@agora/domain/common/housekeeping";
import type { OutboxOutcome } from "@agora/domain/outbox/outbox.deps";
import type { Logger } from "pino";

/** Logs what the outbox loop reports: retries as warnings, dead letters and store failures as errors. */
export const logOutboxOutcome =
  (logger: Logger) =>
  (outcome: OutboxOutcome): void => {
    switch (outcome.type) {
      case "claimed":
        // A turn of the loop: counted by the outbox metrics, too frequent to log.
        break;
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
