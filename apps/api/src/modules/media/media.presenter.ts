import type { MediaReadDto, MediaUploadDto } from "@agora/contracts/media";
import type { MediaAsset, PresignedRequest } from "@agora/domain/media/media.types";

export const toMediaUploadDto = (asset: MediaAsset, upload: PresignedRequest): MediaUploadDto => ({
  id: asset.id,
  upload_url: upload.url,
  method: "PUT",
  headers: { "Content-Type": asset.mimeType, "Content-Length": String(asset.sizeBytes) },
  expires_at: upload.expiresAt.toISOString(),
});

export const toMediaReadDto = (asset: MediaAsset, read: PresignedRequest): MediaReadDto => ({
  id: asset.id,
  url: read.url,
  method: "GET",
  expires_at: read.expiresAt.toISOString(),
  mime_type: asset.mimeType,
  size_bytes: asset.sizeBytes,
});
