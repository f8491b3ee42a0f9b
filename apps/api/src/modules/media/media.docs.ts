import type { mediaOperations } from "@agora/contracts/media";
import type { DescriptionsOf } from "../../http/operations";

/** The media operations' OpenAPI descriptions, by operationId. */
export const mediaDescriptions = {
  mediaUpload:
    "Registers a private media asset (status `pending`) and answers a URL of the object store, presigned for " +
    "15 minutes, to PUT the bytes to directly with exactly the returned `headers`: the signature covers the " +
    "`Content-Type` and `Content-Length`, so the store refuses other bytes. Then pass the `id` to the record " +
    "that takes it (a moment for `moment`, a payment's evidence for `payment_evidence`, a chat message for " +
    "`message`). Before a record takes it, or a read URL is handed out, the server checks the object is in the " +
    "store with the declared size and type, else 422; confirming it (the first `GET /api/v1/media/{id}`, or " +
    "the first record sent with it) queues its processing: the bytes' type is checked by their magic numbers, " +
    "and an image is re-encoded upright without metadata (EXIF, GPS), with a blurhash and WebP variants of " +
    "about 320 and 1280 px. Records take it once its `status` is `ready` (409 `media_processing` before, 422 " +
    "once `rejected`). An asset no record took within 24 hours is deleted, object and record. Without a " +
    "configured object store: 503 `storage_unavailable`. Besides the hourly limit on upload requests, each " +
    "account may have by default at most 100 pending uploads (asked for within the last 24 hours and not yet taken by a " +
    "record; confirming or processing one does not end it) declaring at most 512 MiB in all (both " +
    "configurable): past either, 429 `rate_limited` and nothing is registered, with `Retry-After` (seconds " +
    "until enough pending uploads are 24 hours old for this one to fit) and `RateLimit-Limit`, " +
    "`RateLimit-Remaining` and `RateLimit-Reset` describing the quota that refused (uploads, or bytes).",
  mediaGet:
    "Read URLs of the object store and the asset's processing `status` (poll this after uploading: the first " +
    "read confirms the upload and queues its processing). A ready image is served from its processed copy " +
    "and `variants`, with `width`, `height` and `blurhash`. Every read URL lives at most 5 minutes: " +
    "a private asset's is presigned when asked; a public one's is signed at the start of the current minute " +
    "for 5 minutes, so it is the same all minute and caches hit (docs/media.md). Readable by its owner; by any signed-in user once it " +
    "is attached to a public moment they may see (not hidden by moderation, its author's account active, no " +
    "block either way with its author); for payment evidence, by the payment's reviewers (the order's provider owner, administrators). " +
    "Anyone else: 403; an unknown id: 404. While the bytes are not in the store as declared (upload not " +
    "finished): 422. 503 `storage_unavailable` when the store is not configured or does not answer.",
} satisfies DescriptionsOf<typeof mediaOperations>;
