import { notificationsOperations } from "@agora/contracts/notifications";
import { listNotifications } from "@agora/domain/notifications/list-notifications";
import type { NotificationsDeps } from "@agora/domain/notifications/notifications.deps";
import { readNotification } from "@agora/domain/notifications/read-notification";
import { registerDevice } from "@agora/domain/notifications/register-device";
import { actorOf } from "../../http/middleware/auth";
import { type Handled, handle } from "../../http/operations";
import { ok } from "../../http/respond";
import { toDeviceDto, toNotificationDto } from "./notifications.presenter";

/** `/devices` and `/notifications`. */
export const notificationRoutes = ({ notifications }: { notifications: NotificationsDeps }): Handled[] => [
  handle(notificationsOperations.devicesRegister, async (c) => {
    const outcome = await registerDevice(notifications, actorOf(c), c.req.valid("json"));

    return outcome.status === "registered"
      ? ok(c, toDeviceDto(outcome.device), { status: 201 })
      : ok(c, { status: outcome.status }, { status: 202 });
  }),
  handle(notificationsOperations.notificationsList, async (c) => {
    const list = await listNotifications(notifications, actorOf(c));

    return ok(c, list.map(toNotificationDto));
  }),
  handle(notificationsOperations.notificationsMarkRead, async (c) => {
    const notification = await readNotification(notifications, actorOf(c), c.req.valid("param").id);

    return ok(c, toNotificationDto(notification));
  }),
];
