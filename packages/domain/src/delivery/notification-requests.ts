import { v5 } from "uuid";
import { isUuid } from "../shared/ids";
import { PermanentDeliveryError } from "./delivery.errors";

/**
 * The payload convention of outbox events (any kind):
 *
 * ```ts
 * payload.notifications?: Array<{
 *   userId: string;                  // the recipient (UUID)
 *   kind: string;                    // e.g. "order.created"; clients switch on it
 *   title: string;
 *   body: string;
 *   data?: Record<string, unknown>;  // small JSON object for the client (ids to open)
 * }>
 * ```
 *
 * Each entry becomes one inbox row whose id is derived from (event id, recipient), so a redelivered
 * event writes nothing twice, and one recipient gets at most one notification per event. The rows
 * are then pushed to the recipient's devices when push is configured. An event without
 * `notifications` is simply marked processed; other payload fields are the event's own business.
 *
 * Push carries notifications only: sign-in and verification codes go by mail, never through here.
 */
export type NotificationRequest = {
  userId: string;
  kind: string;
  title: string;
  body: string;
  data?: Record<string, unknown>;
};

/** Fixed namespace of notification ids (UUIDv5); changing it would let redelivery duplicate rows. */
export const NOTIFICATION_ID_NAMESPACE = "6f1c6f3e-5d0a-4f7e-9a55-3b1f2a9c8d47";

/** The inbox row id of `userId`'s notification from event `eventId`: the same on every delivery. */
export const notificationId = (eventId: string, userId: string): string =>
  v5(`${eventId}:${userId}`, NOTIFICATION_ID_NAMESPACE);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const text = (entry: Record<string, unknown>, field: string, index: number, min: number): string => {
  const value = entry[field];
  if (typeof value !== "string" || value.length < min) {
    throw new PermanentDeliveryError(`notifications[${index}].${field} must be a string`);
  }

  return value;
};

/** The notification requests of an event payload; a malformed list can never be delivered. */
export const notificationRequestsOf = (payload: Record<string, unknown>): NotificationRequest[] => {
  const list = payload.notifications;
  if (list === undefined || list === null) {
    return [];
  }
  if (!Array.isArray(list)) {
    throw new PermanentDeliveryError("payload.notifications must be an array");
  }

  return list.map((entry: unknown, index) => {
    if (!isPlainObject(entry)) {
      throw new PermanentDeliveryError(`notifications[${index}] must be an object`);
    }
    const userId = text(entry, "userId", index, 1);
    if (!isUuid(userId)) {
      throw new PermanentDeliveryError(`notifications[${index}].userId must be a UUID`);
    }
    if (entry.data !== undefined && !isPlainObject(entry.data)) {
      throw new PermanentDeliveryError(`notifications[${index}].data must be an object`);
    }

    return {
      userId: userId.toLowerCase(),
      kind: text(entry, "kind", index, 1),
      title: text(entry, "title", index, 0),
      body: text(entry, "body", index, 0),
      ...(entry.data === undefined ? {} : { data: entry.data }),
    };
  });
};
