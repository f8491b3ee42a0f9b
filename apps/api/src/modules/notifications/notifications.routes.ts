import { notificationsOperations } from "@agora/contracts/notifications";
import { listNotifications } from "@agora/domain/notifications/list-notifications";
import {
  NOTIFICATIONS_PER_READ,
  type NotificationsDeps,
} from "@agora/domain/notifications/notifications.deps";
import { readAllNotifications } from "@agora/domain/notifications/read-all-notifications";
import { readNotification } from "@agora/domain/notifications/read-notification";
import { registerDevice } from "@agora/domain/notifications/register-device";
import { actorOf } from "../../http/middleware/auth";
import { type Handled, handle } from "../../http/operations";
import { ok } from "../../http/respond";
import { toDeviceDto, toNotificationDto } from "./notifications.presenter";

/** The path value of `POST /notifications/{id}/read` that marks every notification read. */
const READ_ALL = "all";

/** `/devices` and `/notifications`. */
export const notificationRoutes = ({ notifications }: { notifications: NotificationsDeps }): Handled[] => [
  handle(notificationsOperations.devicesRegister, async (c) => {
    const outcome = await registerDevice(notifications, actorOf(c), c.req.valid("json"));

    return outcome.status === "registered"
      ? ok(c, toDeviceDto(outcome.device), { status: 201 })
      : ok(c, { status: outcome.status }, { status: 202 });
  }),
  handle(notificationsOperations.notificationsList, async (c) => {
    const page = await listNotifications(notifications, actorOf(c), c.req.valid("query").before);

    return ok(c, page.items.map(toNotificationDto), {
      meta: { limit: NOTIFICATIONS_PER_READ, next_before: page.nextBefore, unread_count: page.unreadCount },
    });
  }),
  handle(notificationsOperations.notificationsMarkRead, async (c) => {
    const { id } = c.req.valid("param");
    if (id === READ_ALL) {
      const marked = await readAllNotifications(notifications, actorOf(c));

      return ok(c, {
        notifications: marked.notifications,
        conversations: marked.conversations,
        unread_count: marked.unreadCount,
      });
    }
    const notification = await readNotification(notifications, actorOf(c), id);

    return ok(c, toNotificationDto(notification));
  }),
];
