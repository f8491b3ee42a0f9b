import type { Clock } from "../common/clock";
import type { OutboxStore } from "./outbox.ports";

/**
 * Re-drives dead-lettered outbox events (`pnpm agora outbox retry`): all of them, or the one with
 * `eventId`. They become due now with their attempts reset, so each gets ten tries again.
 * Resolves how many were re-driven (0 when there were none, or the id names no dead event).
 */
export const retryDeadEvents = async (
  { outbox, clock }: { outbox: OutboxStore; clock: Clock },
  input: { eventId?: string | undefined } = {},
): Promise<number> => outbox.redrive(clock.now(), input.eventId);
