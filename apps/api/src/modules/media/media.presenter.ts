import type { MediaItemDto, MediaReadDto, MediaUploadDto } from "@agora/contracts/media";
import type { MediaRead } from "@agora/domain/media/get-media-url";
import {
  type MediaAsset,
  mediaReadStatus,
  PROCESSING_RETRY_AFTER_SECONDS,
  type PresignedRequest,
} from "@agora/domain/media/media.types";
import type { RecordMedia } from "@agora/domain/media/record-media";

export const toMediaUploadDto = (asset: MediaAsset, upload: PresignedRequest): MediaUploadDto => ({
  id: asset.id,
  upload_url: upload.url,
  method: "PUT",
  headers: { "Content-Type": asset.mimeType, "Content-Length": String(asset.sizeBytes) },
  expires_at: upload.expiresAt.toISOString(),
});

/** What processing recorded of a ready image; null for anything else (a video, or not ready). */
const readyImage = (asset: MediaAsset) => (asset.processing === "ready" ? asset.image : null);

export const toMediaReadDto = ({ asset, read }: MediaRead): MediaReadDto => {
  const image = readyImage(asset);
  const status = mediaReadStatus(asset);

  return {
    id: asset.id,
    url: read?.url ?? null,
    method: "GET",
    expires_at: read?.expiresAt.toISOString() ?? null,
    retry_after_seconds: status === "processing" ? PROCESSING_RETRY_AFTER_SECONDS : null,
    mime_type: asset.mimeType,
    size_bytes: asset.sizeBytes,
    status,
    rejected_reason: asset.processing === "rejected" ? asset.rejectedReason : null,
    width: image?.width ?? null,
    height: image?.height ?? null,
    blurhash: image?.blurhash ?? null,
    variants: read?.variants ?? [],
  };
};

/**
 * A record's image as its reads show it: its state always, its URLs and what processing recorded
 * once it is ready (recordMedia decided who sees a rejected one).
 */
export const toMediaItemDto = ({ asset, urls }: RecordMedia): MediaItemDto => {
  const image = readyImage(asset);

  return {
    id: asset.id,
    // An attached asset is always confirmed; an old row without a state reads as processing.
    status: asset.processing ?? "processing",
    rejected_reason: asset.processing === "rejected" ? asset.rejectedReason : null,
    url: urls?.url ?? null,
    width: image?.width ?? null,
    height: image?.height ?? null,
    blurhash: image?.blurhash ?? null,
    variants: urls?.variants ?? [],
  };
};
