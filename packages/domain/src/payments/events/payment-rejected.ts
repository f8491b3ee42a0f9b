import { type NotifyDeps, notify } from "../../notifications/notify";
import { defineEventKind } from "../../outbox/event-kind";
import { payerNotice, paymentDecidedPayload } from "./payment-decided";

/** A submitted payment was rejected by an administrator; the payer may submit again. */
export const paymentRejected = defineEventKind({
  kind: "payment.rejected",
  aggregateType: "payment",
  payload: paymentDecidedPayload,
  deliver: (deps: NotifyDeps, event) => notify(deps, event, payerNotice(event)),
});
