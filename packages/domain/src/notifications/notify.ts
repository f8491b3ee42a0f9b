import { v5 } from "uuid";
import type { NotificationsDeps } from "./notifications.deps";
import type { NewNotification, PushMessage } from "./notifications.ports";
import type { Notification } from "./notifications.types";
import { unreadTotal } from "./unread-total";

/** One inbox notification an event kind asks for, rendered at delivery time. */
export type NotificationRequest = {
  userId: string;
  /** What happened, e.g. "order.created"; clients switch on it. */
  kind: string;
  title: string;
  body: string;
  /** A small JSON object for the client (ids to open). */
  data?: Record<string, unknown>;
  /** false: the inbox row only, no push (the user is looking already). Default true. */
  push?: boolean;
  /** Pushes with the same key replace each other on the device (see PushMessage). */
  collapseKey?: string;
  /**
   * A chat notice: the recipient's one row of this conversation (chatNoticeId), updated in place
   * by each newer message (`seq`) instead of a row per event.
   */
  chat?: { conversationId: string; seq: number };
};

/** Fixed namespace of notification ids (UUIDv5); changing it would let redelivery duplicate rows. */
export const NOTIFICATION_ID_NAMESPACE = "6f1c6f3e-5d0a-4f7e-9a55-3b1f2a9c8d47";

/** The inbox row id of `userId`'s notification from event `eventId`: the same on every delivery. */
export const notificationId = (eventId: string, userId: string): string =>
  v5(`${eventId}:${userId.toLowerCase()}`, NOTIFICATION_ID_NAMESPACE);

/**
 * The id of `userId`'s chat notice of a conversation: the same for every message of it, so the
 * conversation has one row in the recipient's inbox.
 */
export const chatNoticeId = (conversationId: string, userId: string): string =>
  v5(`conversation:${conversationId.toLowerCase()}:${userId.toLowerCase()}`, NOTIFICATION_ID_NAMESPACE);

/** Push data is string → string: strings pass as they are, anything else as JSON. */
const pushData = (notification: Notification): Record<string, string> => {
  const data: Record<string, string> = {};
  for (const [key, value] of Object.entries(notification.data)) {
    data[key] = typeof value === "string" ? value : JSON.stringify(value);
  }

  return { ...data, notification_id: notification.id, kind: notification.kind };
};

const toPushMessage = (
  notification: Notification,
  collapseKey: string | undefined,
  badge: number,
): PushMessage => ({
  title: notification.title,
  body: notification.body,
  data: pushData(notification),
  ...(collapseKey === undefined ? {} : { collapseKey }),
  badge,
});

export type NotifyDeps = Pick<NotificationsDeps, "notifications" | "devices" | "push" | "clock">;

/**
 * Delivers the notifications of one event: an inbox row per recipient (at most one per event and
 * recipient: ids are derived from both, so a redelivered event writes nothing twice; a chat notice
 * is instead the recipient's one row of the conversation, updated in place by newer messages),
 * then a push of the rows not pushed yet to their recipients' devices, marking them pushed, with
 * the recipient's unread count (unreadTotal) as the badge. Tokens the provider reports invalid are
 * deleted (a request with `push: false` gets its inbox row only; a `collapseKey` makes the device
 * replace the previous push with that key). A push failure throws, so the event backs off and is
 * retried; the inbox rows written before it stay. Push carries notifications only: sign-in and
 * verification codes go by mail, never through here.
 */
export const notify = async (
  { notifications, devices, push, clock }: NotifyDeps,
  event: { id: string; createdAt: Date },
  requests: readonly NotificationRequest[],
): Promise<void> => {
  const rows = new Map<string, NewNotification>();
  const chatNotices: (NewNotification & { conversationId: string; seq: number })[] = [];
  const pushes = new Map<string, NotificationRequest>();
  for (const request of requests) {
    const id = request.chat
      ? chatNoticeId(request.chat.conversationId, request.userId)
      : notificationId(event.id, request.userId);
    if (request.push !== false) {
      pushes.set(id, request);
    }
    if (rows.has(id)) {
      continue;
    }
    const row: NewNotification = {
      id,
      userId: request.userId.toLowerCase(),
      eventId: event.id,
      kind: request.kind,
      title: request.title,
      body: request.body,
      data: request.data ?? {},
      createdAt: event.createdAt,
    };
    rows.set(id, row);
    if (request.chat) {
      chatNotices.push({ ...row, ...request.chat });
    }
  }
  if (rows.size === 0) {
    return;
  }
  const chatIds = new Set(chatNotices.map((notice) => notice.id));
  await notifications.addMany([...rows.values()].filter((row) => !chatIds.has(row.id)));
  for (const notice of chatNotices) {
    await notifications.upsertChatNotice(notice);
  }
  if (!push || pushes.size === 0) {
    return;
  }
  for (const notification of await notifications.findUnpushed([...pushes.keys()])) {
    const tokens = await devices.findTokensByUser(notification.userId);
    if (tokens.length === 0) {
      continue;
    }
    const badge = await unreadTotal(notifications, notification.userId);
    const { invalidTokens } = await push.send(
      tokens,
      toPushMessage(notification, pushes.get(notification.id)?.collapseKey, badge),
    );
    const invalid = new Set(invalidTokens);
    if (invalid.size > 0) {
      await devices.deleteByTokens([...invalid]);
    }
    if (tokens.some((token) => !invalid.has(token))) {
      await notifications.markPushed(notification.id, clock.now());
    }
  }
};
