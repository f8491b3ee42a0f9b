import { StorageUnavailableError } from "@agora/domain/media/media.errors";
import type { ObjectStore } from "@agora/domain/media/media.ports";
import { loadOnce } from "../lazy";
import type { S3Settings } from "./s3-object-store";

export type CreatedObjectStore = { store: ObjectStore; kind: "s3" | "unavailable"; close(): void };

const unavailable = (): Promise<never> =>
  Promise.reject(new StorageUnavailableError("Media storage is not configured on this server."));

/**
 * The S3 store when S3_* are set (config validation requires them in staging and production);
 * otherwise the local adapter, which answers every call unavailable (503 storage_unavailable):
 * real uploads need the configured object store. The AWS SDK is loaded at the first call.
 */
/** S3_* and S3_TIMEOUT_MS: the object store's slice of the configuration. */
export type ObjectStoreConfig = { s3: S3Settings | undefined; timeouts: { s3Ms: number } };

export const createObjectStore = (config: ObjectStoreConfig): CreatedObjectStore => {
  const { s3: settings } = config;
  if (settings) {
    let created: (ObjectStore & { close(): void }) | undefined;
    const s3 = loadOnce(async () => {
      created = (await import("./s3-object-store")).createS3ObjectStore(settings, config.timeouts.s3Ms);

      return created;
    });

    return {
      store: {
        presignUpload: async (...args) => (await s3()).presignUpload(...args),
        presignRead: async (...args) => (await s3()).presignRead(...args),
        head: async (...args) => (await s3()).head(...args),
        delete: async (...args) => (await s3()).delete(...args),
        get: async (...args) => (await s3()).get(...args),
        put: async (...args) => (await s3()).put(...args),
        copy: async (...args) => (await s3()).copy(...args),
      },
      kind: "s3",
      close: () => created?.close(),
    };
  }

  return {
    store: {
      presignUpload: unavailable,
      presignRead: unavailable,
      head: unavailable,
      delete: unavailable,
      get: unavailable,
      put: unavailable,
      copy: unavailable,
    },
    kind: "unavailable",
    close: () => {},
  };
};
