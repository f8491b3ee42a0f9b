import type { OutboxDeps } from "@agora/domain/outbox/outbox.deps";
import type { Tracing } from "./tracing";

/**
 * Delivery through `tracing`: each event in a consumer span of its own, with the statements its
 * delivery runs inside it. A failed delivery marks the span failed.
 */
export const traceDelivery =
  (tracing: Tracing, deliver: OutboxDeps["deliver"]): OutboxDeps["deliver"] =>
  (event) =>
    tracing.inSpan(
      `deliver ${event.kind}`,
      {
        kind: "consumer",
        attributes: {
          "messaging.system": "agora.outbox",
          "messaging.operation.type": "process",
          "messaging.destination.name": event.kind,
          "messaging.message.id": event.id,
          "agora.outbox.attempt": event.attempts + 1,
        },
      },
      () => deliver(event),
    );
