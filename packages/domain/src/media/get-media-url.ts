import type { Actor } from "../common/actor";
import { ForbiddenError, NotFoundError } from "../common/app-error";
import { confirmUpload } from "./confirm-upload";
import type { MediaDeps } from "./media.deps";
import { canReadMedia } from "./media.policy";
import type { MediaAsset } from "./media.types";
import { type MediaUrls, mediaUrls } from "./media-urls";

/**
 * The asset's read URLs, after the access policy (404 unknown, 403 not allowed) and the upload's
 * confirmation (422 while the bytes are not in the store as declared; confirming queues the
 * processing, whose progress the asset's `processing` tells).
 */
export const getMediaUrl = async (
  deps: MediaDeps,
  actor: Actor,
  assetId: string,
): Promise<{ asset: MediaAsset; read: MediaUrls }> => {
  const found = await deps.repos.media.findById(assetId);
  if (!found || found.status === "expired") {
    throw new NotFoundError("Media asset");
  }
  const attachments = await deps.repos.media.findAttachments(found.id, actor.userId, deps.clock.now());
  if (!canReadMedia(actor, found, attachments)) {
    throw new ForbiddenError("You may not read this media asset.");
  }
  const asset = await confirmUpload(deps, found, "id");

  return { asset, read: await mediaUrls(deps.objects, asset, deps.clock.now()) };
};
