import type { Actor } from "../common/actor";
import { ForbiddenError, NotFoundError } from "../common/app-error";
import type { MediaDeps } from "./media.deps";
import { canReadMedia } from "./media.policy";
import type { MediaAsset } from "./media.types";
import { type MediaUrls, mediaUrls } from "./media-urls";

/** An asset as `GET /media/{id}` answers it: its state, and its read URLs once it is ready. */
export type MediaRead = { asset: MediaAsset; read: MediaUrls | null };

/** The asset, unless it is unknown or expired (404). */
export const findAsset = async (deps: Pick<MediaDeps, "repos">, assetId: string): Promise<MediaAsset> => {
  const found = await deps.repos.media.findById(assetId);
  if (!found || found.status === "expired") {
    throw new NotFoundError("Media asset");
  }

  return found;
};

/**
 * The asset's state and, once it is ready, its read URLs, after the access policy (404 unknown,
 * 403 not allowed). A read changes nothing: it neither confirms an upload nor queues its
 * processing (a record taking the asset does, or confirmMedia), so a `pending` asset stays pending
 * however often it is read.
 */
export const getMediaUrl = async (deps: MediaDeps, actor: Actor, assetId: string): Promise<MediaRead> => {
  const asset = await findAsset(deps, assetId);
  const attachments = await deps.repos.media.findAttachments(asset.id, actor.userId, deps.clock.now());
  if (!canReadMedia(actor, asset, attachments)) {
    throw new ForbiddenError("You may not read this media asset.");
  }

  return { asset, read: await mediaUrls(deps.objects, asset, deps.clock.now()) };
};
