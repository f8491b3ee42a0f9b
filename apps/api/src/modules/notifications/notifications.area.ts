import type { NotificationsDeps } from "@agora/domain/notifications/notifications.deps";
import type { Area } from "../area";
import { notificationsDescriptions } from "./notifications.docs";
import { notificationRoutes } from "./notifications.routes";

/** The caller's devices and inbox. */
export const notificationsArea: Area<{ notifications: NotificationsDeps }> = {
  routes: notificationRoutes,
  descriptions: notificationsDescriptions,
};
