import { AppError, ValidationError } from "../common/app-error";

/** The object store is not configured, or did not answer in time or at all (503). */
export class StorageUnavailableError extends AppError {
  constructor(message = "Media storage is unavailable; try again later.", options?: { cause?: unknown }) {
    super("storage_unavailable", message, options);
  }
}

/**
 * An asset named in a request cannot be used there (422): not the caller's, of another purpose,
 * already attached, expired, rejected by processing, or its bytes not (yet) in the store with the
 * declared size and type.
 */
export class UnusableMediaError extends ValidationError {
  constructor(path: string, message: string) {
    super([{ path, message }], `The media asset cannot be used: ${message}.`);
  }
}
