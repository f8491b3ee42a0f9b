import type { NotifyDeps } from "../notifications/notify";
import type { EventKind } from "../outbox/event-kind";
import { paymentConfirmed } from "./events/payment-confirmed";
import { paymentRejected } from "./events/payment-rejected";
import { paymentSubmitted } from "./events/payment-submitted";

/** The payments area's outbox event kinds (registered in event-kinds.ts, delivered by the worker). */
export const paymentsEvents: ReadonlyArray<EventKind<unknown, NotifyDeps>> = [
  paymentSubmitted,
  paymentConfirmed,
  paymentRejected,
];
