import { paymentConfirmed } from "./events/payment-confirmed";
import { paymentRejected } from "./events/payment-rejected";
import { paymentSubmitted } from "./events/payment-submitted";

/** The payments area's outbox event kinds (registered in event-kinds.ts, delivered by the worker). */
export const paymentsEvents = [paymentSubmitted, paymentConfirmed, paymentRejected] as const;
