/** What a use case hands the outbox, inside its transaction (built by an event kind's `event`). */
export type NewOutboxEvent = {
  kind: string;
  aggregateType: string;
  aggregateId: string;
  payload: Record<string, unknown>;
};

/** A claimed outbox event. `attempts` counts the deliveries that failed before this one. */
export type OutboxEvent = NewOutboxEvent & {
  id: string;
  attempts: number;
  createdAt: Date;
};
