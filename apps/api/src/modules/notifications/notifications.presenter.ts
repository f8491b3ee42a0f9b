import type { DeviceDto, NotificationDto } from "@agora/contracts/notifications";
import type { Device, Notification } from "@agora/domain/notifications/notifications.types";

export const toDeviceDto = (device: Device): DeviceDto => ({
  id: device.id,
  token: device.token,
  platform: device.platform,
  created_at: device.createdAt.toISOString(),
});

export const toNotificationDto = (notification: Notification): NotificationDto => ({
  id: notification.id,
  kind: notification.kind,
  title: notification.title,
  body: notification.body,
  data: notification.data,
  read_at: notification.readAt?.toISOString() ?? null,
  created_at: notification.createdAt.toISOString(),
  unread_count: notification.unreadCount,
});
