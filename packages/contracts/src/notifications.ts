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
    read_at: timestampSchema.nullable(),
    created_at: timestampSchema,
  })
  .meta({ id: "Notification" });
export type NotificationDto = z.infer<typeof notificationSchema>;

export const notificationListSchema = z.array(notificationSchema);

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
    responses: {
      200: { description: "Up to 50 notifications, newest first.", data: notificationListSchema },
    },
    errors: ["unauthorized"],
  },
  notificationsMarkRead: {
    method: "POST",
    path: "/api/v1/notifications/{id}/read",
    auth: "bearer",
    tags,
    summary: "Mark a notification read",
    params: z.object({ id: z.string().meta({ description: "Notification id." }) }),
    responses: { 200: { description: "The notification, read.", data: notificationSchema } },
    errors: ["unauthorized", "not_found"],
  },
});
