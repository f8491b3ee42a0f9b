/**
 * Type tests of the event kinds' registration, checked by `tsc` (the package's typecheck): a kind
 * whose delivery needs something the worker does not provide must not compile. If that check is
 * ever lost (the `in D` of EventKind), the `@ts-expect-error` lines are unused and the typecheck
 * fails.
 */
import type { Database } from "@agora/db/client";
import { eventKinds } from "@agora/domain/event-kinds";
import type { NotifyDeps } from "@agora/domain/notifications/notify";
import { orderCompleted } from "@agora/domain/orders/events/order-completed";
import { defineEventKind, type EventKind } from "@agora/domain/outbox/event-kind";
import { createOutboxDeps, type DeliveryDeps, type OutboxDeliveryOptions } from "../src/outbox-worker";

/** Something no process provides the deliveries. */
type Translator = { translate(text: string, language: string): Promise<string> };

/** A kind that needs only what the worker provides (its payload is order.completed's). */
const inboxOnly = defineEventKind({
  kind: "test.inbox_only",
  aggregateType: "test",
  payload: orderCompleted.payload,
  deliver: async (_deps: NotifyDeps) => {},
});

/**
 * Kinds that also need a `translator`. Were their deps compared both ways (as a method's parameters
 * are), the first would pass as a kind of the worker (its deps are a DeliveryDeps, plus one), and
 * the second as a kind of a list typed with less than it needs (as the areas' lists once were):
 * either would then fail only at delivery, every event dead-lettered.
 */
const needsAllAndTranslator = defineEventKind({
  kind: "test.translated",
  aggregateType: "test",
  payload: orderCompleted.payload,
  deliver: async (_deps: DeliveryDeps & { translator: Translator }) => {},
});
const needsTranslator = defineEventKind({
  kind: "test.translated_notice",
  aggregateType: "test",
  payload: orderCompleted.payload,
  deliver: async (_deps: NotifyDeps & { translator: Translator }) => {},
});

declare const database: Database;
declare const options: OutboxDeliveryOptions;

/** @public (checked by `tsc`, never run) */
export const typeTests = () => {
  // Every kind the service writes, and one more needing only what is provided, are registered.
  createOutboxDeps(database, { ...options, kinds: [...eventKinds, inboxOnly] });
  const provided: ReadonlyArray<EventKind<unknown, DeliveryDeps>> = [...eventKinds, inboxOnly];

  // @ts-expect-error the worker provides no `translator`
  createOutboxDeps(database, { ...options, kinds: [needsAllAndTranslator] });
  // @ts-expect-error nor can a list of the kinds it delivers hold one that needs it
  const refused: ReadonlyArray<EventKind<unknown, DeliveryDeps>> = [...eventKinds, needsAllAndTranslator];
  // @ts-expect-error a list typed with less than its kinds need refuses them
  const understated: ReadonlyArray<EventKind<unknown, NotifyDeps>> = [inboxOnly, needsTranslator];
  // @ts-expect-error nor registered directly
  createOutboxDeps(database, { ...options, kinds: [needsTranslator] });

  return [provided, refused, understated];
};
