import { mediaOperations } from "@agora/contracts/media";
import { confirmMedia } from "@agora/domain/media/confirm-media";
import { getMediaUrl, type MediaRead } from "@agora/domain/media/get-media-url";
import type { MediaDeps } from "@agora/domain/media/media.deps";
import { mediaReadStatus, PROCESSING_RETRY_AFTER_SECONDS } from "@agora/domain/media/media.types";
import { requestUpload } from "@agora/domain/media/request-upload";
import { actorOf } from "../../http/middleware/auth";
import { type Handled, handle } from "../../http/operations";
import { ok } from "../../http/respond";
import { toMediaReadDto, toMediaUploadDto } from "./media.presenter";

/** While an asset is processed, its read says when to ask again (`Retry-After`, as in the body). */
const readHeaders = ({ asset }: MediaRead): Record<string, string> | undefined =>
  mediaReadStatus(asset) === "processing"
    ? { "retry-after": String(PROCESSING_RETRY_AFTER_SECONDS) }
    : undefined;

export const mediaRoutes = ({ media }: { media: MediaDeps }): Handled[] => [
  handle(mediaOperations.mediaUpload, async (c) => {
    const input = c.req.valid("json");
    const { asset, upload: ticket } = await requestUpload(media, actorOf(c), {
      purpose: input.purpose,
      mimeType: input.mime_type,
      sizeBytes: input.size_bytes,
    });

    return ok(c, toMediaUploadDto(asset, ticket), { status: 201 });
  }),
  handle(mediaOperations.mediaConfirm, async (c) => {
    const found = await confirmMedia(media, actorOf(c), c.req.valid("param").id);

    return ok(c, toMediaReadDto(found), { headers: readHeaders(found) });
  }),
  handle(mediaOperations.mediaGet, async (c) => {
    const found = await getMediaUrl(media, actorOf(c), c.req.valid("param").id);

    return ok(c, toMediaReadDto(found), { headers: readHeaders(found) });
  }),
];
