import { AppError, ValidationError } from "../common/app-error";

/** The object store is not configured, or did not answer in time or at all (503). */
export class StorageUnavailableError extends AppError {
  constructor(message = "Media storage is unavailable; try again later.", options?: { cause?: unknown }) {
    super("storage_unavailable", message, options);
  }
}

/**
 * An asset named in a request cannot be used there (422): not the caller's, of another purpose,
 * already attached, expired, or its bytes not (yet) in the store with the declared size and type.
 */
export class UnusableMediaError extends ValidationError {
  constructor(path: string, message: string) {
    super([{ path, message }], `The media asset cannot be used: ${message}.`);
  }
}

/**
 * An asset named in a request is still being processed (409 `media_processing`): its bytes are
 * checked and its metadata stripped before any record may show it. Poll `GET /media/{id}` until
 * its `status` is `ready`, then send the request again.
 */
export class MediaProcessingError extends AppError {
  constructor(path: string) {
    super(
      "media_processing",
      `The media asset at ${path} is still being processed; try again when GET /api/v1/media/{id} says ready.`,
    );
  }
}
