import { StorageUnavailableError } from "@agora/domain/media/media.errors";
import type { ObjectStore } from "@agora/domain/media/media.ports";
import type { Config } from "../config";
import { createS3ObjectStore } from "./s3-object-store";

export type CreatedObjectStore = { store: ObjectStore; kind: "s3" | "unavailable"; close(): void };

const unavailable = (): Promise<never> =>
  Promise.reject(new StorageUnavailableError("Media storage is not configured on this server."));

/**
 * The S3 store when S3_* are set (config validation requires them in staging and production);
 * otherwise the local adapter, which answers every call unavailable (503 storage_unavailable):
 * real uploads need the configured object store.
 */
export const createObjectStore = (config: Config): CreatedObjectStore => {
  if (config.s3) {
    const s3 = createS3ObjectStore(config.s3, config.timeouts.s3Ms);

    return { store: s3, kind: "s3", close: () => s3.close() };
  }

  return {
    store: { presignUpload: unavailable, presignRead: unavailable, head: unavailable, delete: unavailable },
    kind: "unavailable",
    close: () => {},
  };
};
