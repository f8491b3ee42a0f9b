import { z } from "zod";
import { timestampSchema } from "./common";

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
