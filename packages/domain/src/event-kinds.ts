// Every outbox event kind the service writes, for the processes that deliver them (the API with
// its embedded worker, and apps/worker, both through @agora/outbox-worker). Each area lists its own
// kinds in `<area>/<area>.events.ts`; a kind missing there would be dead-lettered as unknown.
import { chatEvents } from "./chat/chat.events";
import type { MessageSentDeps } from "./chat/events/message-sent";
import { communityEvents } from "./community/community.events";
import type { IdentityMailDeps } from "./identity/identity.deps";
import { identityEvents } from "./identity/identity.events";
import type { MeetingRoomDeps } from "./lifestyle/lifestyle.deps";
import { lifestyleEvents } from "./lifestyle/lifestyle.events";
import type { MediaObjectDeps } from "./media/events/objects-deleted";
import { mediaEvents } from "./media/media.events";
import type { MediaProcessingDeps } from "./media/process-media";
import type { GuestReceiptDeps } from "./orders/guest-receipts";
import { ordersEvents } from "./orders/orders.events";
import type { EventKind } from "./outbox/event-kind";
import { paymentsEvents } from "./payments/payments.events";

/**
 * What delivering any of the kinds may need: the inbox and push, chat notices, the mailer for code
 * mails and guests' receipts, the video service's rooms for meetings, the object store for deleted media, and the store
 * and image processor for uploads.
 */
export type EventDeliveryDeps = MessageSentDeps &
  IdentityMailDeps &
  MeetingRoomDeps &
  MediaObjectDeps &
  MediaProcessingDeps & { guestReceipts: GuestReceiptDeps };

export const eventKinds: ReadonlyArray<EventKind<unknown, EventDeliveryDeps>> = [
  ...ordersEvents,
  ...paymentsEvents,
  ...communityEvents,
  ...chatEvents,
  ...identityEvents,
  ...lifestyleEvents,
  ...mediaEvents,
];
