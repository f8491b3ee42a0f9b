import type { Clock } from "../common/clock";
import type { OutboxStore } from "./outbox.ports";
import type { OutboxEvent } from "./outbox.types";

/** What happened to one claimed event, or to the loop itself; the process logs it (the domain never logs). */
export type OutboxOutcome =
  | { type: "processed"; event: OutboxEvent }
  | { type: "retry"; event: OutboxEvent; attempts: number; retryAt: Date; error: string }
  | { type: "dead"; event: OutboxEvent; attempts: number; error: string }
  /** The store failed while recording an outcome; the lease expires and the event is claimed again. */
  | { type: "record_failed"; event: OutboxEvent; error: string }
  /**
   * A claim loop claimed (`events` may be 0 when nothing is due): one turn of loop `loop`, the claim
   * taking `seconds`. A loop that stops reporting turns is wedged (the worker's liveness probe).
   */
  | { type: "claimed"; loop: number; events: number; seconds: number }
  /** The claim of loop `loop` failed (database unreachable); the loop waits and tries again. */
  | { type: "claim_failed"; loop: number; error: string };

export type OutboxDeps = {
  outbox: OutboxStore;
  /** Delivers one event by its kind (an event registry bound to what the kinds need). */
  deliver: (event: OutboxEvent) => Promise<void>;
  clock: Clock;
  /** Uniform [0, 1) source for backoff jitter; tests pin it. */
  random: () => number;
  observe?: ((outcome: OutboxOutcome) => void) | undefined;
};

/** Ten failed deliveries dead-letter an event (docs/decisions/outbox.md). */
export const MAX_DELIVERY_ATTEMPTS = 10;
