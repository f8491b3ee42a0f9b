import type { Actor } from "../shared/actor";
import { ForbiddenError, NotFoundError } from "../shared/app-error";
import { confirmUpload } from "./confirm-upload";
import type { MediaDeps } from "./media.deps";
import { canReadMedia } from "./media.policy";
import { type MediaAsset, type PresignedRequest, READ_URL_TTL_SECONDS } from "./media.types";

/**
 * A GET URL presigned for 5 minutes, after the access policy (404 unknown, 403 not allowed) and
 * the upload's confirmation (422 while the bytes are not in the store as declared).
 */
export const getMediaUrl = async (
  deps: MediaDeps,
  actor: Actor,
  assetId: string,
): Promise<{ asset: MediaAsset; read: PresignedRequest }> => {
  const found = await deps.repos.media.findById(assetId);
  if (!found || found.status === "expired") {
    throw new NotFoundError("Media asset");
  }
  const attachments = await deps.repos.media.findAttachments(found.id, actor.userId);
  if (!canReadMedia(actor, found, attachments)) {
    throw new ForbiddenError("You may not read this media asset.");
  }
  const asset = await confirmUpload(deps, found, "id");
  const now = deps.clock.now();
  const url = await deps.objects.presignRead(asset.objectKey, {
    at: now,
    expiresInSeconds: READ_URL_TTL_SECONDS,
  });

  return {
    asset,
    read: {
      url,
      method: "GET",
      headers: {},
      expiresAt: new Date(now.getTime() + READ_URL_TTL_SECONDS * 1000),
    },
  };
};
