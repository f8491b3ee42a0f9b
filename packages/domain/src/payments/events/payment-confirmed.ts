import { type NotifyDeps, notify } from "../../notifications/notify";
import { defineEventKind } from "../../outbox/event-kind";
import { payerNotice, paymentDecidedPayload } from "./payment-decided";

/** A submitted payment was confirmed (by its provider or an administrator). */
export const paymentConfirmed = defineEventKind({
  kind: "payment.confirmed",
  aggregateType: "payment",
  payload: paymentDecidedPayload,
  deliver: (deps: NotifyDeps, event) => notify(deps, event, payerNotice(event)),
});
