import type { Clock } from "../common/clock";
import type { KeyRing } from "../common/derived-keys";
import type { IdGenerator } from "../common/ids";
import type {
  ConversationReadMarkers,
  DeviceRepository,
  NotificationRepository,
  PushSender,
} from "./notifications.ports";

export type NotificationsDeps = {
  notifications: NotificationRepository;
  devices: DeviceRepository;
  /** Reading a chat notice, or every notice, moves the conversations' read markers. */
  conversations: ConversationReadMarkers;
  /** Undefined when push is off (no FCM configured): notifications then only reach the inbox. */
  push: PushSender | undefined;
  clock: Clock;
  ids: IdGenerator;
  /** Keys of the HMAC that proves a device receives a token's pushes (KEY_PURPOSES.deviceProofs). */
  deviceProofKey: KeyRing;
};

/** Push registrations kept per user; registering one more evicts the least recently registered. */
export const DEVICES_PER_USER = 10;

/** Notifications per read. */
export const NOTIFICATIONS_PER_READ = 50;
