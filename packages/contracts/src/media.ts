import { z } from "zod";
import { idParamSchema, timestampSchema } from "./common";
import { defineOperations } from "./operation";

export const mediaPurposeSchema = z
  .enum([
    "moment",
    "message",
    "payment_evidence",
    "listing",
    "menu_item",
    "provider_logo",
    "dating_photo",
    "avatar",
  ])
  .meta({
    description:
      "What the asset is for; only a record of that kind takes it. `moment`: a community moment (the asset " +
      "becomes public once attached). `message`: a chat message. `payment_evidence`: a payment's evidence " +
      "(readable by the payment's reviewers). `listing`: a listing's gallery (readable by anyone while the " +
      "listing is public). `menu_item`: a menu item's image (while its listing is public and the item " +
      "active). `provider_logo`: a provider's logo (while the provider is approved and its owner active). " +
      "`dating_photo`: a dating profile's photos (to the members who may browse the profile: visible, no " +
      "block either way). `avatar`: a user's picture (to signed-in users, no block either way, owner active).",
  });

export const mediaMimeTypeSchema = z.enum(["image/jpeg", "image/png", "image/webp", "video/mp4"]);

export const uploadRequestSchema = z
  .object({
    purpose: mediaPurposeSchema,
    mime_type: mediaMimeTypeSchema.meta({
      description:
        "The type of the bytes to upload. The purposes of record images (`listing`, `menu_item`, " +
        "`provider_logo`, `dating_photo`, `avatar`) take image types only (`image/jpeg`, `image/png`, " +
        "`image/webp`): `video/mp4` for one of them is 422 `validation_failed` at `mime_type`. `moment`, " +
        "`message` and `payment_evidence` take `video/mp4` too.",
    }),
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

export const mediaStatusSchema = z.enum(["processing", "ready", "rejected"]).meta({
  id: "MediaStatus",
  description:
    "Where the server is with an asset's bytes. `processing`: their type is being checked by their magic " +
    "numbers and, for an image, its metadata (EXIF, GPS) stripped and its variants made; records take the " +
    "asset already, and every read shows it without URLs. `ready`: reads carry its URLs, size and " +
    "placeholder. `rejected`: the bytes are not what was declared, or not a readable image within the pixel " +
    "limit; no record takes it any more (422), and one that took it before shows it to its owner only, with " +
    "the reason (its owner gets a `media.rejected` notice).",
});

export const mediaReadStatusSchema = z.enum(["pending", "processing", "ready", "rejected"]).meta({
  id: "MediaReadStatus",
  description:
    "`pending`: the upload is not confirmed yet; reading the asset does not confirm it: the first record that " +
    "takes it does, or `POST /api/v1/media/{id}/confirm`. Then as `MediaStatus`: `processing`, `ready` or " +
    "`rejected`.",
});

export const mediaVariantSchema = z
  .object({
    name: z.enum(["thumb", "display"]).meta({
      description: "`thumb`: about 320 px wide; `display`: about 1280 px wide (never wider than the image).",
    }),
    url: z.url().meta({ description: "Presigned object-store URL of the WebP variant." }),
    width: z.number().int(),
    height: z.number().int(),
  })
  .meta({ id: "MediaVariant" });

export const mediaItemSchema = z
  .object({
    id: z.string().meta({ description: "The media asset's id (`GET /api/v1/media/{id}` reads it too)." }),
    status: mediaStatusSchema,
    rejected_reason: z.string().nullable().meta({
      description:
        "Why the bytes were rejected (`status` `rejected`, shown to the asset's owner only), else null.",
    }),
    url: z
      .url()
      .nullable()
      .meta({
        description:
          "Presigned URL of the image without metadata (an image's processed copy; a video as uploaded), " +
          "null until `status` is `ready`: nobody is ever given a URL to bytes that were not processed. " +
          "Every read URL works 5 minutes: a public record's is signed at the start of the minute (the same " +
          "URL all minute), a private one's (a chat message's) for each read.",
      }),
    width: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Width at `url`; null for a video or before ready." }),
    height: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Height at `url`; null for a video or before ready." }),
    blurhash: z
      .string()
      .nullable()
      .meta({ description: "BlurHash placeholder; null for a video or before ready." }),
    variants: z
      .array(mediaVariantSchema)
      .meta({ description: "WebP `thumb` and `display`; empty for a video or before ready." }),
  })
  .meta({
    id: "MediaItem",
    description:
      "An image (or video) of a record, as its reads show it: `processing` without URLs from the moment " +
      "the record takes it, then `ready` with its URLs (read the record again, or the realtime frame of a " +
      "message). An asset rejected after the record took it is left out of every read but its owner's.",
  });
export type MediaItemDto = z.infer<typeof mediaItemSchema>;

/** A record's media in its create or update body: asset ids in order (each once). */
export const mediaAssetIdsSchema = (max: number, purpose: string) =>
  z
    .array(z.string().min(1).max(64))
    .max(max)
    .meta({
      description:
        `Up to ${max} of the caller's own asset ids uploaded for \`${purpose}\`, in order, right after their ` +
        "upload: the record takes them at once (the first record to take an asset confirms its upload, 422 " +
        "when the bytes are not in the store as declared) and shows each `processing`, without URLs, until " +
        "it is ready. An asset already `rejected` is 422. On an update the list replaces the media: images " +
        "dropped from it are deleted later with the orphan purge.",
    });

export const mediaReadSchema = z
  .object({
    id: z.string(),
    url: z
      .url()
      .nullable()
      .meta({
        description:
          "Presigned object-store URL to GET the bytes from, once `status` is `ready`: an image's " +
          "metadata-free copy (at most 2560 px on its longer side), a video's copy. Null before, for " +
          "everyone (its owner too): nobody is given a URL to bytes that were not processed.",
      }),
    method: z.literal("GET"),
    expires_at: timestampSchema.nullable().meta({
      description:
        "When the URLs stop working (null without URLs): 5 minutes after signing; a public asset's are " +
        "signed at the start of the minute (the same URLs all minute). Ask again after.",
    }),
    retry_after_seconds: z.number().int().nullable().meta({
      description:
        "While `status` is `processing`: when to ask again (also the `Retry-After` header); null otherwise.",
    }),
    mime_type: mediaMimeTypeSchema,
    size_bytes: z.number().int().meta({ description: "The declared size of the upload." }),
    status: mediaReadStatusSchema,
    rejected_reason: z
      .string()
      .nullable()
      .meta({ description: "Why the bytes were rejected (status `rejected`), else null." }),
    width: z.number().int().nullable().meta({ description: "A ready image's width at `url`, else null." }),
    height: z.number().int().nullable().meta({ description: "A ready image's height at `url`, else null." }),
    blurhash: z
      .string()
      .nullable()
      .meta({ description: "A ready image's BlurHash placeholder (4×3 components), else null." }),
    variants: z
      .array(mediaVariantSchema)
      .meta({ description: "A ready image's WebP variants (`thumb`, `display`); empty otherwise." }),
  })
  .meta({ id: "MediaRead" });
export type MediaReadDto = z.infer<typeof mediaReadSchema>;

const tags = ["Media"];

/** What a read of an asset being processed carries besides its body. */
const processingHeaders = {
  "Retry-After": {
    description:
      "While `status` is `processing`: seconds to wait before asking again (as `retry_after_seconds`).",
  },
};

/** Uploads straight to the object store, and read URLs. */
export const mediaOperations = defineOperations({
  mediaUpload: {
    method: "POST",
    path: "/api/v1/media/upload",
    auth: "bearer",
    writeLimit: "uploads",
    tags,
    summary: "Ask for an upload URL",
    idempotencyKey: "optional",
    body: uploadRequestSchema,
    responses: {
      201: { description: "Registered; upload the bytes to `upload_url`.", data: mediaUploadSchema },
    },
    errors: ["unauthorized", "validation_failed", "storage_unavailable"],
  },
  mediaConfirm: {
    method: "POST",
    path: "/api/v1/media/{id}/confirm",
    auth: "bearer",
    writeLimit: "media_confirmations",
    repeatable: true,
    tags,
    summary: "Confirm an upload, so that its processing starts now",
    params: idParamSchema,
    responses: {
      200: {
        description: "Confirmed; its processing is queued.",
        data: mediaReadSchema,
        headers: processingHeaders,
      },
    },
    errors: ["unauthorized", "forbidden", "not_found", "validation_failed", "storage_unavailable"],
  },
  mediaGet: {
    method: "GET",
    path: "/api/v1/media/{id}",
    auth: "bearer",
    tags,
    summary: "A media asset's state, and its read URL once ready",
    params: idParamSchema,
    responses: {
      200: {
        description: "The asset's state and, once ready, its read URL.",
        data: mediaReadSchema,
        headers: processingHeaders,
      },
    },
    errors: ["unauthorized", "forbidden", "not_found", "validation_failed", "storage_unavailable"],
  },
});
