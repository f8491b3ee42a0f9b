import { z } from "zod";
import { idParamSchema, timestampSchema } from "./common";
import { defineOperations } from "./operation";

export const mediaPurposeSchema = z.enum(["moment", "message", "payment_evidence"]).meta({
  description:
    "What the asset is for; only a record of that kind takes it. `moment`: a community moment (the asset " +
    "becomes public once attached). `message`: a chat message. `payment_evidence`: a payment's evidence " +
    "(readable by the payment's reviewers).",
});

export const mediaMimeTypeSchema = z.enum(["image/jpeg", "image/png", "image/webp", "video/mp4"]);

export const uploadRequestSchema = z
  .object({
    purpose: mediaPurposeSchema,
    mime_type: mediaMimeTypeSchema,
    size_bytes: z
      .number()
      .int()
      .min(1)
      .max(10_485_760)
      .meta({ description: "The exact size of the bytes to upload: 1 to 10485760 (10 MiB)." }),
  })
  .meta({ example: { purpose: "moment", mime_type: "image/jpeg", size_bytes: 482133 } });
export type UploadRequest = z.infer<typeof uploadRequestSchema>;

export const mediaUploadSchema = z
  .object({
    id: z.string().meta({ description: "The media asset's id, to pass to the record that takes it." }),
    upload_url: z
      .url()
      .meta({ description: "Presigned object-store URL; send the bytes there, not to the API." }),
    method: z.literal("PUT"),
    headers: z.object({ "Content-Type": z.string(), "Content-Length": z.string() }).meta({
      description: "Send exactly these headers: the signature covers them, so other bytes are refused.",
    }),
    expires_at: timestampSchema.meta({ description: "The URL works for 15 minutes." }),
  })
  .meta({ id: "MediaUpload" });
export type MediaUploadDto = z.infer<typeof mediaUploadSchema>;

export const mediaReadSchema = z
  .object({
    id: z.string(),
    url: z.url().meta({ description: "Presigned object-store URL to GET the bytes from." }),
    method: z.literal("GET"),
    expires_at: timestampSchema.meta({ description: "The URL works for 5 minutes; ask again after." }),
    mime_type: mediaMimeTypeSchema,
    size_bytes: z.number().int(),
  })
  .meta({ id: "MediaRead" });
export type MediaReadDto = z.infer<typeof mediaReadSchema>;

const tags = ["Media"];

/** Uploads straight to the object store, and read URLs. */
export const mediaOperations = defineOperations({
  mediaUpload: {
    method: "POST",
    path: "/api/v1/media/upload",
    auth: "bearer",
    writeLimit: "uploads",
    tags,
    summary: "Ask for an upload URL",
    body: uploadRequestSchema,
    responses: {
      201: { description: "Registered; upload the bytes to `upload_url`.", data: mediaUploadSchema },
    },
    errors: ["unauthorized", "validation_failed", "storage_unavailable"],
  },
  mediaGet: {
    method: "GET",
    path: "/api/v1/media/{id}",
    auth: "bearer",
    tags,
    summary: "A read URL for a media asset",
    params: idParamSchema,
    responses: { 200: { description: "The read URL.", data: mediaReadSchema } },
    errors: ["unauthorized", "forbidden", "not_found", "validation_failed", "storage_unavailable"],
  },
});
