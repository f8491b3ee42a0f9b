// Every outbox event kind the service writes, for the processes that deliver them (the API with
// its embedded worker, and apps/worker). A kind missing here would be dead-lettered as unknown.
import type { MessageNoticeReader } from "./chat/chat.ports";
import { messageSent } from "./chat/events/message-sent";
import { reportClosed } from "./community/events/report-closed";
import { codeRequested } from "./identity/events/code-requested";
import { codesLocked } from "./identity/events/codes-locked";
import type { IdentityMailDeps } from "./identity/identity.deps";
import { meetingEnded } from "./lifestyle/events/meeting-ended";
import { participantLeft } from "./lifestyle/events/participant-left";
import type { MeetingRoomDeps } from "./lifestyle/lifestyle.deps";
import type { NotifyDeps } from "./notifications/notify";
import { orderCompleted } from "./orders/events/order-completed";
import { orderCreated } from "./orders/events/order-created";
import { orderStatusChanged } from "./orders/events/order-status-changed";
import type { GuestReceiptDeps } from "./orders/guest-receipts";
import type { EventKind } from "./outbox/event-kind";
import { paymentConfirmed } from "./payments/events/payment-confirmed";
import { paymentRejected } from "./payments/events/payment-rejected";
import { paymentSubmitted } from "./payments/events/payment-submitted";

/**
 * What delivering any of the kinds may need: the inbox and push, chat notices, the mailer for code
 * mails and guests' receipts, and the video service's rooms for meetings.
 */
export type EventDeliveryDeps = NotifyDeps &
  IdentityMailDeps &
  MeetingRoomDeps & { chat: MessageNoticeReader; guestReceipts: GuestReceiptDeps };

export const eventKinds: ReadonlyArray<EventKind<unknown, EventDeliveryDeps>> = [
  orderCreated,
  orderStatusChanged,
  orderCompleted,
  paymentSubmitted,
  paymentConfirmed,
  paymentRejected,
  reportClosed,
  messageSent,
  codeRequested,
  codesLocked,
  meetingEnded,
  participantLeft,
];
