import { idParamSchema } from "@agora/contracts/common";
import { successEnvelope } from "@agora/contracts/envelope";
import { mediaReadSchema, mediaUploadSchema, uploadRequestSchema } from "@agora/contracts/media";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { getMediaUrl } from "@agora/domain/media/get-media-url";
import type { MediaDeps } from "@agora/domain/media/media.deps";
import { requestUpload } from "@agora/domain/media/request-upload";
import { createRoute } from "@hono/zod-openapi";
import { actorOf, requireAuth } from "../../http/middleware/auth";
import { body, createRouter, errors, json } from "../../http/openapi";
import { ok } from "../../http/respond";
import { toMediaReadDto, toMediaUploadDto } from "./media.presenter";

const tags = ["Media"];
const secured = [{ bearerAuth: [] }];

/** Mounted at /api/v1/media. */
export const createMediaRoutes = ({ identity, media }: { identity: IdentityDeps; media: MediaDeps }) => {
  const auth = requireAuth(identity);

  const upload = createRoute({
    method: "post",
    path: "/upload",
    tags,
    summary: "Ask for an upload URL",
    description:
      "Registers a private media asset (status `pending`) and answers a URL of the object store, presigned for " +
      "15 minutes, to PUT the bytes to directly with exactly the returned `headers`: the signature covers the " +
      "`Content-Type` and `Content-Length`, so the store refuses other bytes. Then pass the `id` to the record " +
      "that takes it (a moment for `moment`, a payment's evidence for `payment_evidence`, a chat message for " +
      "`message`). Before a record takes it, or a read URL is handed out, the server checks the object is in the " +
      "store with the declared size and type (the asset becomes `uploaded`), else 422. An asset no record took " +
      "within 24 hours is deleted, object and record. Without a configured object store: 503 " +
      "`storage_unavailable`.",
    security: secured,
    middleware: [auth],
    request: body(uploadRequestSchema),
    responses: {
      201: json(successEnvelope(mediaUploadSchema), "Registered; upload the bytes to `upload_url`."),
      ...errors("unauthorized", "validation_failed", "storage_unavailable"),
    },
  });

  const read = createRoute({
    method: "get",
    path: "/{id}",
    tags,
    summary: "A read URL for a media asset",
    description:
      "A URL of the object store, presigned for 5 minutes. Readable by its owner; by any signed-in user once it " +
      "is attached to a public moment they may see (not hidden by moderation, no block either way with its " +
      "author); for payment evidence, by the payment's reviewers (the order's provider owner, administrators). " +
      "Anyone else: 403; an unknown id: 404. While the bytes are not in the store as declared (upload not " +
      "finished): 422. 503 `storage_unavailable` when the store is not configured or does not answer.",
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema },
    responses: {
      200: json(successEnvelope(mediaReadSchema), "The read URL."),
      ...errors("unauthorized", "forbidden", "not_found", "validation_failed", "storage_unavailable"),
    },
  });

  return createRouter()
    .openapi(upload, async (c) => {
      const input = c.req.valid("json");
      const { asset, upload: ticket } = await requestUpload(media, actorOf(c), {
        purpose: input.purpose,
        mimeType: input.mime_type,
        sizeBytes: input.size_bytes,
      });

      return ok(c, toMediaUploadDto(asset, ticket), { status: 201 });
    })
    .openapi(read, async (c) => {
      const { asset, read: ticket } = await getMediaUrl(media, actorOf(c), c.req.valid("param").id);

      return ok(c, toMediaReadDto(asset, ticket));
    });
};
