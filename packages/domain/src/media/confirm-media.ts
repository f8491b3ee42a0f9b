import type { Actor } from "../common/actor";
import { ForbiddenError } from "../common/app-error";
import { confirmUpload } from "./confirm-upload";
import { findAsset, type MediaRead } from "./get-media-url";
import type { MediaDeps } from "./media.deps";
import { mediaUrls } from "./media-urls";

/**
 * The owner confirms an upload before any record takes it (`POST /media/{id}/confirm`), so that
 * its processing starts while the user is still writing the post: the store is asked whether the
 * object is there with the declared size and type (422 otherwise; 503 when it does not answer),
 * and its processing is queued in the same transaction. Confirming a confirmed asset changes
 * nothing and answers it as it is. Only its owner confirms (403; 404 unknown or expired).
 */
export const confirmMedia = async (deps: MediaDeps, actor: Actor, assetId: string): Promise<MediaRead> => {
  const found = await findAsset(deps, assetId);
  if (found.ownerId !== actor.userId) {
    throw new ForbiddenError("Only the owner of a media asset confirms its upload.");
  }
  const asset = await confirmUpload(deps, found, "id");

  return { asset, read: await mediaUrls(deps.objects, asset, deps.clock.now()) };
};
