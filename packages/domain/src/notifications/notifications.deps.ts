import type { Clock } from "../shared/clock";
import type { IdGenerator } from "../shared/ids";
import type { DeviceRepository, NotificationRepository, PushSender } from "./notifications.ports";

export type NotificationsDeps = {
  notifications: NotificationRepository;
  devices: DeviceRepository;
  /** Undefined when push is off (no FCM configured): notifications then only reach the inbox. */
  push: PushSender | undefined;
  clock: Clock;
  ids: IdGenerator;
};

/** SPEC §Limits: notifications per read. */
export const NOTIFICATIONS_PER_READ = 50;
