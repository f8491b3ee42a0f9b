import type { MediaItemDto, MediaReadDto, MediaUploadDto } from "@agora/contracts/media";
import type { MediaAsset, PresignedRequest } from "@agora/domain/media/media.types";
import type { MediaUrls } from "@agora/domain/media/media-urls";
import type { RecordMedia } from "@agora/domain/media/record-media";

export const toMediaUploadDto = (asset: MediaAsset, upload: PresignedRequest): MediaUploadDto => ({
  id: asset.id,
  upload_url: upload.url,
  method: "PUT",
  headers: { "Content-Type": asset.mimeType, "Content-Length": String(asset.sizeBytes) },
  expires_at: upload.expiresAt.toISOString(),
});

export const toMediaReadDto = (asset: MediaAsset, read: MediaUrls): MediaReadDto => {
  const image = asset.processing === "ready" ? asset.image : null;

  return {
    id: asset.id,
    url: read.url,
    method: "GET",
    expires_at: read.expiresAt.toISOString(),
    mime_type: asset.mimeType,
    size_bytes: asset.sizeBytes,
    // A confirmed upload always has a processing state; `processing` covers a legacy row too.
    status: asset.processing ?? "processing",
    rejected_reason: asset.processing === "rejected" ? asset.rejectedReason : null,
    width: image?.width ?? null,
    height: image?.height ?? null,
    blurhash: image?.blurhash ?? null,
    variants: read.variants,
  };
};

/** A record's image as its reads show it. */
export const toMediaItemDto = ({ asset, urls }: RecordMedia): MediaItemDto => {
  const image = asset.processing === "ready" ? asset.image : null;

  return {
    id: asset.id,
    url: urls.url,
    width: image?.width ?? null,
    height: image?.height ?? null,
    blurhash: image?.blurhash ?? null,
    variants: urls.variants,
  };
};
