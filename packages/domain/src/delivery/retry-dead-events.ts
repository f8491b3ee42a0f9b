import { NotFoundError } from "../shared/app-error";
import { isUuid } from "../shared/ids";
import type { DeliveryDeps } from "./delivery.deps";

/**
 * Re-drives dead-lettered outbox events (`pnpm agora outbox retry`): all of them, or the one with
 * `eventId`. They become due now with their attempts reset, so each gets ten tries again.
 * Resolves how many were re-driven (0 when there were none, or the id names no dead event).
 */
export const retryDeadEvents = async (
  { outbox, clock }: Pick<DeliveryDeps, "outbox" | "clock">,
  input: { eventId?: string | undefined } = {},
): Promise<number> => {
  if (input.eventId !== undefined && !isUuid(input.eventId)) {
    throw new NotFoundError("Outbox event");
  }

  return outbox.redrive(clock.now(), input.eventId);
};
