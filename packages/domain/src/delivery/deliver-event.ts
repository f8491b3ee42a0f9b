import type { DeliveryDeps } from "./delivery.deps";
import type { PushMessage } from "./delivery.ports";
import type { Notification, OutboxEvent } from "./delivery.types";
import { notificationId, notificationRequestsOf } from "./notification-requests";

type Deps = Pick<DeliveryDeps, "notifications" | "devices" | "push" | "clock">;

/** Push data is string → string: strings pass as they are, anything else as JSON. */
const pushData = (notification: Notification): Record<string, string> => {
  const data: Record<string, string> = {};
  for (const [key, value] of Object.entries(notification.data)) {
    data[key] = typeof value === "string" ? value : JSON.stringify(value);
  }

  return { ...data, notification_id: notification.id, kind: notification.kind };
};

export const toPushMessage = (notification: Notification): PushMessage => ({
  title: notification.title,
  body: notification.body,
  data: pushData(notification),
});

/**
 * Delivers one outbox event (see `notification-requests.ts` for the payload convention): writes an
 * inbox row per recipient, then pushes the rows not pushed yet to their recipients' devices and
 * marks them pushed. Safe to run again for the same event: inbox ids are deterministic and pushed
 * rows are skipped. Tokens the provider reports invalid are deleted. A push failure throws, so the
 * event backs off and is retried; the inbox rows written before it stay.
 */
export const deliverEvent = async (
  { notifications, devices, push, clock }: Deps,
  event: OutboxEvent,
): Promise<void> => {
  const requests = notificationRequestsOf(event.payload);
  if (requests.length === 0) {
    return;
  }
  const rows = new Map<string, Parameters<typeof notifications.addMany>[0][number]>();
  for (const request of requests) {
    const id = notificationId(event.id, request.userId);
    if (!rows.has(id)) {
      rows.set(id, {
        id,
        userId: request.userId,
        eventId: event.id,
        kind: request.kind,
        title: request.title,
        body: request.body,
        data: request.data ?? {},
        createdAt: event.createdAt,
      });
    }
  }
  await notifications.addMany([...rows.values()]);
  const ids = [...rows.keys()];
  if (!push) {
    return;
  }

  for (const notification of await notifications.findUnpushed(ids)) {
    const tokens = await devices.findTokensByUser(notification.userId);
    if (tokens.length === 0) {
      continue;
    }
    const { invalidTokens } = await push.send(tokens, toPushMessage(notification));
    const invalid = new Set(invalidTokens);
    if (invalid.size > 0) {
      await devices.deleteByTokens([...invalid]);
    }
    if (tokens.some((token) => !invalid.has(token))) {
      await notifications.markPushed(notification.id, clock.now());
    }
  }
};
