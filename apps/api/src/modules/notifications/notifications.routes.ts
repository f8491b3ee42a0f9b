import { successEnvelope } from "@agora/contracts/envelope";
import {
  deviceProofSentSchema,
  deviceSchema,
  notificationListSchema,
  notificationSchema,
  registerDeviceRequestSchema,
} from "@agora/contracts/notifications";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { listNotifications } from "@agora/domain/notifications/list-notifications";
import type { NotificationsDeps } from "@agora/domain/notifications/notifications.deps";
import { readNotification } from "@agora/domain/notifications/read-notification";
import { registerDevice } from "@agora/domain/notifications/register-device";
import { createRoute, z } from "@hono/zod-openapi";
import { actorOf, requireAuth } from "../../http/middleware/auth";
import { body, createRouter, errors, json } from "../../http/openapi";
import { ok } from "../../http/respond";
import { toDeviceDto, toNotificationDto } from "./notifications.presenter";

const tags = ["Notifications and devices"];
const secured = [{ bearerAuth: [] }];

export type NotificationRoutesDeps = { identity: IdentityDeps; notifications: NotificationsDeps };

/** Mounted at /api/v1: `/devices` and `/notifications`. Middleware is per route, never `use("*")`. */
export const createNotificationRoutes = ({ identity, notifications }: NotificationRoutesDeps) => {
  const auth = requireAuth(identity);

  const registerDeviceRoute = createRoute({
    method: "post",
    path: "/devices",
    tags,
    summary: "Register a device for push notifications",
    description:
      "Registers the push token of the caller's device for the caller's session: pushes go only to " +
      "registrations of live sessions, so a phone stops receiving a user's notifications once that user " +
      "signs out (register again after every sign-in). One registration per token: a new token or the " +
      "caller's own is 201 with the registration, and so is a token whose registering session has ended " +
      "(the previous user signed out on this phone). A token held by another account's live session is " +
      "not taken on the caller's word (that would silence the other account's pushes): the answer is 202 " +
      "`proof_sent` and the service sends that token a data-only push with `data.kind` = `device.proof` " +
      "and `data.proof` (when push is configured; without push the token cannot move and does not need " +
      "to); the app registers again with `proof` and gets 201 (a wrong or stale proof is 422). A user keeps at most 10 registrations; registering an eleventh evicts the least recently " +
      "registered. Tokens the push provider reports invalid are deleted. Push carries notifications " +
      "only, never sign-in or verification codes.",
    security: secured,
    middleware: [auth],
    request: body(registerDeviceRequestSchema),
    responses: {
      201: json(successEnvelope(deviceSchema), "The device registration."),
      202: json(
        successEnvelope(deviceProofSentSchema),
        "The token is held elsewhere; a proof was pushed to it.",
      ),
      ...errors("unauthorized", "validation_failed"),
    },
  });

  const listRoute = createRoute({
    method: "get",
    path: "/notifications",
    tags,
    summary: "The caller's notifications",
    description:
      "The caller's 50 newest notifications, newest first, read and unread. Notifications are written " +
      "by the outbox worker shortly after the event that causes them (an order, a payment); `data` " +
      "carries the event's ids for the client to open.",
    security: secured,
    middleware: [auth],
    responses: {
      200: json(successEnvelope(notificationListSchema), "Up to 50 notifications, newest first."),
      ...errors("unauthorized"),
    },
  });

  const readRoute = createRoute({
    method: "post",
    path: "/notifications/{id}/read",
    tags,
    summary: "Mark a notification read",
    description:
      "Sets `read_at`. Idempotent: reading it again answers 200 with the first `read_at`. Another " +
      "user's notification, an unknown or a malformed id is 404.",
    security: secured,
    middleware: [auth],
    request: { params: z.object({ id: z.string().meta({ description: "Notification id." }) }) },
    responses: {
      200: json(successEnvelope(notificationSchema), "The notification, read."),
      ...errors("unauthorized", "not_found"),
    },
  });

  return createRouter()
    .openapi(registerDeviceRoute, async (c) => {
      const outcome = await registerDevice(notifications, actorOf(c), c.req.valid("json"));

      return outcome.status === "registered"
        ? ok(c, toDeviceDto(outcome.device), { status: 201 })
        : ok(c, { status: outcome.status }, { status: 202 });
    })
    .openapi(listRoute, async (c) => {
      const list = await listNotifications(notifications, actorOf(c));

      return ok(c, list.map(toNotificationDto));
    })
    .openapi(readRoute, async (c) => {
      const notification = await readNotification(notifications, actorOf(c), c.req.valid("param").id);

      return ok(c, toNotificationDto(notification));
    });
};
