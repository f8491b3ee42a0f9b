import type { z } from "zod";
import { PermanentDeliveryError } from "./outbox.errors";
import type { NewOutboxEvent, OutboxEvent } from "./outbox.types";

/** A claimed event whose payload passed its kind's schema. */
export type DeliverableEvent<P> = Omit<OutboxEvent, "payload"> & { payload: P };

/**
 * One kind of outbox event: its name, its payload schema and how it is delivered. A use case
 * builds the event with `event(...)` (so the payload is typed where it is written); the worker
 * parses the stored payload with `payload` and hands it to `deliver`. Payloads carry facts (ids,
 * amounts, names as they were), never rendered text: wording is decided at delivery time.
 * `deliver` must be idempotent (delivery is at least once).
 *
 * `D` is what its delivery needs, and `in` makes the compiler check it where the kind is
 * registered: an `EventKind<P, A & B>` is no `EventKind<unknown, A>`, so a list of the kinds a worker
 * delivers with `A` (createOutboxDeps' DeliveryDeps) refuses a kind that also needs `B`. Without
 * the annotation `deliver`, a method, would compare its `deps` both ways and such a kind would
 * compile, then fail at every delivery (packages/outbox-worker/test/delivery-deps.test-d.ts).
 */
export interface EventKind<P, in D> {
  readonly kind: string;
  readonly aggregateType: string;
  readonly payload: z.ZodType<P>;
  /**
   * Its delivery is long work (processing an upload's bytes): the worker claims such events in a
   * loop of their own, so they never hold the delivery of other kinds (see `runOutbox`).
   */
  readonly slowDelivery?: boolean;
  event(aggregateId: string, payload: P): NewOutboxEvent;
  deliver(deps: D, event: DeliverableEvent<P>): Promise<void>;
}

export const defineEventKind = <P extends Record<string, unknown>, D>(definition: {
  kind: string;
  aggregateType: string;
  payload: z.ZodType<P>;
  slowDelivery?: boolean;
  deliver: (deps: D, event: DeliverableEvent<P>) => Promise<void>;
}): EventKind<P, D> => ({
  ...definition,
  event: (aggregateId, payload) => ({
    kind: definition.kind,
    aggregateType: definition.aggregateType,
    aggregateId,
    payload,
  }),
});

/**
 * The kinds a process delivers, by name. An event of a kind it does not know, or whose payload
 * its kind refuses, can never be delivered: it is dead-lettered with a clear error, never dropped.
 */
export const createEventRegistry = <D>(kinds: ReadonlyArray<EventKind<unknown, D>>) => {
  const byName = new Map<string, EventKind<unknown, D>>();
  for (const kind of kinds) {
    if (byName.has(kind.kind)) {
      throw new Error(`event kind ${kind.kind} is registered twice`);
    }
    byName.set(kind.kind, kind);
  }

  return {
    kinds: [...byName.keys()],
    async deliver(deps: D, event: OutboxEvent): Promise<void> {
      const kind = byName.get(event.kind);
      if (!kind) {
        throw new PermanentDeliveryError(`unknown event kind "${event.kind}"`);
      }
      const parsed = kind.payload.safeParse(event.payload);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new PermanentDeliveryError(
          `payload of ${event.kind} is invalid: ${issue?.path.join(".") || "payload"} ${issue?.message ?? ""}`.trim(),
        );
      }
      await kind.deliver(deps, { ...event, payload: parsed.data });
    },
  };
};
