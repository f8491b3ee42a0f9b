// Every outbox event kind the service writes, for the processes that deliver them (the API with
// its embedded worker, and apps/worker, both through @agora/outbox-worker). Each area lists its own
// kinds in `<area>/<area>.events.ts`; a kind missing there would be dead-lettered as unknown.
import { chatEvents } from "./chat/chat.events";
import { communityEvents } from "./community/community.events";
import { identityEvents } from "./identity/identity.events";
import { lifestyleEvents } from "./lifestyle/lifestyle.events";
import { mediaEvents } from "./media/media.events";
import { ordersEvents } from "./orders/orders.events";
import { paymentsEvents } from "./payments/payments.events";

/**
 * Each kind keeps the type of what its delivery needs (its `deliver`'s `deps`): the worker's
 * registry (createOutboxDeps in packages/outbox-worker/src/outbox-worker.ts) checks every one against
 * what it provides, so a kind needing something no process gives fails to compile there.
 */
export const eventKinds = [
  ...ordersEvents,
  ...paymentsEvents,
  ...communityEvents,
  ...chatEvents,
  ...identityEvents,
  ...lifestyleEvents,
  ...mediaEvents,
] as const;
