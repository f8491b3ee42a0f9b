import type { Clock } from "../common/clock";
import type { IdGenerator } from "../common/ids";
import type { UnitOfWork } from "../common/unit-of-work";
import type { OutboxWriter } from "../outbox/outbox.ports";
import type { MediaRepositories, ObjectStore } from "./media.ports";
import type { UploadQuota } from "./upload-quota";

export type MediaDeps = {
  repos: MediaRepositories;
  clock: Clock;
  ids: IdGenerator;
  /** The object store; without configuration its adapter refuses every call (503 storage_unavailable). */
  objects: ObjectStore;
  /** Confirming an upload queues its processing in the same transaction. */
  uow: UnitOfWork<MediaRepositories & { outbox: OutboxWriter }>;
  /** Pending uploads per account (MEDIA_PENDING_UPLOADS_PER_DAY, MEDIA_PENDING_UPLOAD_BYTES_PER_DAY). */
  uploadQuota: UploadQuota;
};
