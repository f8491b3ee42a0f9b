import { z } from "zod";
import { announcementSchema } from "./lifestyle";
import { defineOperations } from "./operation";

export const createAnnouncementRequestSchema = z
  .object({
    title: z.string().trim().min(1).max(200),
    body: z.string().trim().min(1).max(5000),
    published: z.boolean().default(true).meta({ description: "Default true: published at once." }),
  })
  .meta({
    id: "CreateAnnouncementRequest",
    example: {
      title: "Maintenance on Sunday",
      body: "The app is read-only from 02:00 to 03:00 UTC.",
      published: true,
    },
  });

/** `pnpm agora content publish --title T --body B` (operators). */
export const curatedContentPublishSchema = z.object({
  title: z.string({ error: "is required" }).trim().min(1, "is required").max(200),
  body: z.string({ error: "is required" }).trim().min(1, "is required").max(20_000),
});

/** The administrators' announcements. */
export const lifestyleAdminOperations = defineOperations({
  adminAnnouncementsCreate: {
    method: "POST",
    path: "/api/v1/admin/announcements",
    auth: "bearer",
    tags: ["Administration"],
    summary: "Publish an announcement",
    idempotencyKey: "optional",
    body: createAnnouncementRequestSchema,
    responses: { 201: { description: "Created.", data: announcementSchema } },
    errors: ["unauthorized", "forbidden", "validation_failed"],
  },
});
