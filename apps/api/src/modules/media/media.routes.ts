import { mediaOperations } from "@agora/contracts/media";
import { getMediaUrl } from "@agora/domain/media/get-media-url";
import type { MediaDeps } from "@agora/domain/media/media.deps";
import { requestUpload } from "@agora/domain/media/request-upload";
import { actorOf } from "../../http/middleware/auth";
import { type Handled, handle } from "../../http/operations";
import { ok } from "../../http/respond";
import { toMediaReadDto, toMediaUploadDto } from "./media.presenter";

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
  handle(mediaOperations.mediaGet, async (c) => {
    const { asset, read: ticket } = await getMediaUrl(media, actorOf(c), c.req.valid("param").id);

    return ok(c, toMediaReadDto(asset, ticket));
  }),
];
