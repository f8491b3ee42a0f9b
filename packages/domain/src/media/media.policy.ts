import type { Actor } from "../common/actor";
import { isAdmin } from "../identity/identity.policy";
import type { MediaAttachments } from "./media.ports";
import {
  imageMimeTypes,
  imageOnlyPurposes,
  type MediaAsset,
  type MediaMimeType,
  type MediaPurpose,
} from "./media.types";

/**
 * Whether an upload for `purpose` may declare `mimeType`: the record images (imageOnlyPurposes)
 * take only image types; moments, messages and payment evidence take video too.
 */
export const purposeAcceptsMimeType = (purpose: MediaPurpose, mimeType: MediaMimeType): boolean =>
  !(imageOnlyPurposes as readonly MediaPurpose[]).includes(purpose) ||
  (imageMimeTypes as readonly MediaMimeType[]).includes(mimeType);

/** Attached to a record the viewer may see (each fact states that record's visibility rule). */
const onVisibleRecord = (attachments: MediaAttachments): boolean =>
  attachments.onVisibleMoment ||
  attachments.onVisibleListing ||
  attachments.onVisibleMenuItem ||
  attachments.onVisibleProvider ||
  attachments.onVisibleDatingProfile ||
  attachments.onVisibleAvatar;

/**
 * Who may read an asset (403 for anyone else; docs/areas.md, "Media and the community"):
 * - its owner, always; nobody else once processing rejected its bytes (it leaves every record);
 * - any signed-in user, once it is attached to a public moment that user may see (not hidden
 *   unless theirs, no block either way with its author), or to a listing the public sees (so a
 *   suspended provider's or an unpublished listing's images are refused), or as the image of an
 *   active menu item on such a listing, the logo of an approved provider whose owner is active, a
 *   photo of a visible dating profile or the avatar of an active account (neither across a block
 *   either way with the viewer);
 * - for payment evidence, the payment's reviewers: the order's provider owner and administrators;
 * - for an asset sent in a chat message, the two participants of its conversation (the asset stays
 *   private: nobody else, administrators included).
 */
export const canReadMedia = (actor: Actor, asset: MediaAsset, attachments: MediaAttachments): boolean => {
  if (asset.ownerId === actor.userId) {
    return true;
  }
  if (asset.processing === "rejected") {
    return false;
  }
  if (asset.visibility === "public" && onVisibleRecord(attachments)) {
    return true;
  }
  if (attachments.messageParticipantIds.includes(actor.userId)) {
    return true;
  }
  const evidence = attachments.paymentEvidence;

  return evidence !== null && (isAdmin(actor) || evidence.reviewerIds.includes(actor.userId));
};
