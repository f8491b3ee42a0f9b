import { z } from "zod";
import { timestampSchema } from "./common";
import { defineOperations } from "./operation";

export const devicePlatformSchema = z.enum(["ios", "android", "web"]);

export const registerDeviceRequestSchema = z
  .object({
    token: z
      .string()
      .trim()
      .min(1)
      .max(4096)
      .meta({ description: "The push registration token the platform issued (FCM token)." }),
    platform: devicePlatformSchema,
    proof: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .meta({
        description:
          "Only when the token is held by another account's live session: the `proof` the service sent to " +
          "this token in a data push (`data.kind` = `device.proof`) after the first attempt. Valid 10-20 minutes.",
      }),
  })
  .meta({ example: { token: "fcm-registration-token-from-the-device", platform: "android" } });
export type RegisterDeviceRequest = z.infer<typeof registerDeviceRequestSchema>;

export const deviceSchema = z
  .object({
    id: z.string(),
    token: z.string(),
    platform: devicePlatformSchema,
    created_at: timestampSchema,
  })
  .meta({ id: "Device" });
export type DeviceDto = z.infer<typeof deviceSchema>;

export const deviceProofSentSchema = z.object({ status: z.literal("proof_sent") });

export const notificationSchema = z
  .object({
    id: z.string(),
    kind: z.string().meta({ description: "What happened, e.g. `order.created`.", example: "order.created" }),
    title: z.string(),
    body: z.string(),
    data: z
      .record(z.string(), z.any())
      .meta({ description: "Event-specific fields for the client, such as the id to open." }),
    read_at: timestampSchema.nullable().meta({
      description:
        "Null while unread. A chat notice (`kind` `message.sent`) is read when its conversation is: then the " +
        "time the caller's read marker last moved.",
    }),
    created_at: timestampSchema.meta({
      description:
        "When it was last raised: a chat notice moves here with each new message of its conversation.",
    }),
    unread_count: z
      .number()
      .int()
      .min(0)
      .meta({
        description:
          "What it adds to `meta.unread_count`: 1 while unread, 0 once read; a chat notice counts the unread " +
          "messages of its conversation (the conversation's `unread_count`).",
      }),
  })
  .meta({ id: "Notification" });
export type NotificationDto = z.infer<typeof notificationSchema>;

export const notificationListSchema = z.array(notificationSchema);

/** A cursor of a newest-first list whose items move (inbox, conversations): opaque to clients. */
export const positionCursorQuerySchema = z.object({
  before: z
    .string()
    .regex(/^\d{1,18}(_\d{1,18})?_[0-9a-fA-F-]{36}$/, "must be a `meta.next_before` of an earlier page")
    .optional()
    .meta({ description: "`meta.next_before` of the previous page (opaque); absent for the first page." }),
});

/** `meta` of the inbox and of the conversation list. */
export const unreadPageMetaSchema = z.object({
  limit: z.number().int(),
  next_before: z
    .string()
    .nullable()
    .meta({ description: "Pass as `before` for the next (older) page; null on the last page." }),
  unread_count: z
    .number()
    .int()
    .min(0)
    .meta({
      description:
        "The caller's unread count: unread notices other than chat, plus the unread messages of every " +
        "conversation (the sum of the conversations' `unread_count`). The push badge carries the same number.",
    }),
});

/** `POST /notifications/all/read`: what marking everything read did. */
export const readAllResultSchema = z
  .object({
    notifications: z.number().int().min(0).meta({ description: "Notices marked read (chat notices aside)." }),
    conversations: z
      .number()
      .int()
      .min(0)
      .meta({ description: "Conversations whose read marker moved to their newest message." }),
    unread_count: z
      .number()
      .int()
      .min(0)
      .meta({ description: "The caller's unread count after (0 unless something arrived)." }),
  })
  .meta({ id: "NotificationsReadAll" });
export type ReadAllResultDto = z.infer<typeof readAllResultSchema>;

const tags = ["Notifications and devices"];

/** Push registrations of the caller's devices, and the caller's inbox. */
export const notificationsOperations = defineOperations({
  devicesRegister: {
    method: "POST",
    path: "/api/v1/devices",
    auth: "bearer",
    writeLimit: "devices",
    tags,
    summary: "Register a device for push notifications",
    idempotencyKey: "optional",
    body: registerDeviceRequestSchema,
    responses: {
      201: { description: "The device registration.", data: deviceSchema },
      202: {
        description: "The token is held elsewhere; a proof was pushed to it.",
        data: deviceProofSentSchema,
      },
    },
    errors: ["unauthorized", "validation_failed"],
  },
  notificationsList: {
    method: "GET",
    path: "/api/v1/notifications",
    auth: "bearer",
    tags,
    summary: "The caller's notifications",
    query: positionCursorQuerySchema,
    responses: {
      200: {
        description: "Up to 50 notifications, newest first.",
        data: notificationListSchema,
        meta: unreadPageMetaSchema,
      },
    },
    errors: ["unauthorized", "validation_failed"],
  },
  notificationsMarkRead: {
    method: "POST",
    path: "/api/v1/notifications/{id}/read",
    auth: "bearer",
    tags,
    summary: "Mark a notification read (or all of them)",
    params: z.object({
      id: z.string().meta({ description: "Notification id, or `all` for every notification of the caller." }),
    }),
    responses: {
      200: {
        description: "The notification, read; for `all`, what was marked.",
        data: z.union([notificationSchema, readAllResultSchema]),
      },
    },
    errors: ["unauthorized", "not_found"],
  },
});
