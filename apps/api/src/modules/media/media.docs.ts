import type { mediaOperations } from "@agora/contracts/media";
import type { DescriptionsOf } from "../../http/operations";

/**
 * How every record takes its media, said once for their descriptions: the assets are usable right
 * after their upload (docs/media.md, "Life of an asset").
 */
export const recordMediaRule =
  "taken right after its upload (the record answers as usual; the first record to take an asset confirms " +
  "its upload: 422 when the bytes are not in the store as declared) and shown `processing`, without URLs, " +
  "in every read until it is `ready`; 422 when already `rejected`, not the caller's, of another purpose or " +
  "on another record. Bytes rejected after the record took them leave every read but their owner's";

/** The media operations' OpenAPI descriptions, by operationId. */
export const mediaDescriptions = {
  mediaUpload:
    "Registers a private media asset (status `pending`) and answers a URL of the object store, presigned for " +
    "15 minutes, to PUT the bytes to directly with exactly the returned `headers`: the signature covers the " +
    "`Content-Type` and `Content-Length`, so the store refuses other bytes. Then pass the `id` to the record " +
    "that takes it (a moment for `moment`, a payment's evidence for `payment_evidence`, a chat message for " +
    "`message`, a gallery for `listing`, …) right away: the record answers as it always does (201 or 200). " +
    "The first record to take the asset (or `POST /api/v1/media/{id}/confirm`, earlier) checks the object is " +
    "in the store with the declared size and type, else 422, and queues its processing: the bytes' type is " +
    "checked by their magic numbers, and an image is re-encoded upright without metadata (EXIF, GPS), with a " +
    "blurhash and WebP variants of about 320 and 1280 px. Until then every read of the record shows the asset " +
    "`processing`, without URLs, to everyone; once it is `ready` the next read carries its URLs. Bytes " +
    "rejected after a record took them leave every read but the owner's, who sees `rejected` with the reason " +
    "and gets a `media.rejected` notice; a record sent with an asset already rejected is 422. An asset no " +
    "record took within 24 hours is deleted, object and record. Without a configured object store: 503 " +
    "`storage_unavailable`. Besides the hourly limit on upload requests, each account may have by default at " +
    "most 100 pending uploads (asked for within the last 24 hours and not yet taken by a record; confirming or " +
    "processing one does not end it) declaring at most 512 MiB in all (both configurable): past either, 429 " +
    "`rate_limited` and nothing is registered, with `Retry-After` (seconds until enough pending uploads are 24 " +
    "hours old for this one to fit) and `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` " +
    "describing the quota that refused (uploads, or bytes). The typed client's `media.upload(file, { purpose })` " +
    "asks for the URL, PUTs the bytes and confirms them in one call.",
  mediaConfirm:
    "The owner confirms an upload as soon as the PUT to the object store succeeded, so that its processing " +
    "starts while the user is still writing the post (a photo attached a few seconds later is then usually " +
    "`ready` in the record's own answer). The store is asked whether the object is there with the declared " +
    "size and type (422 otherwise, nothing changes; 503 `storage_unavailable` when it does not answer); if " +
    "so the asset turns `processing` and its processing is queued. Sending it again changes nothing and " +
    "answers the asset as it is. Optional: the first record that takes the asset confirms it too. Only its " +
    "owner confirms (403); an unknown or purged id: 404. Answers like `GET /api/v1/media/{id}`, `Retry-After` " +
    "included while it is `processing`.",
  mediaGet:
    "The asset's `status` and, once it is `ready`, read URLs of the object store: a ready image is served from " +
    "its processed copy and `variants`, with `width`, `height` and `blurhash`. Reading changes nothing: a " +
    "`pending` upload stays pending until a record takes it or `POST /api/v1/media/{id}/confirm`. While it is " +
    "`processing` the answer has no URL, for its owner too (nobody is given bytes that were not processed), " +
    "and says when to ask again: `Retry-After` and `retry_after_seconds`. Every read URL lives at most 5 " +
    "minutes: a private asset's is presigned when asked; a public one's is signed at the start of the current " +
    "minute for 5 minutes, so it is the same all minute and caches hit. Readable by its owner; by any " +
    "signed-in user once it is attached to a record they may see (a public moment not hidden by moderation, " +
    "no block either way with its author; a listing the public sees; …); for payment evidence, by the " +
    "payment's reviewers (the order's provider owner, administrators); for a chat message, by its two " +
    "participants. Bytes that processing rejected: their owner only. Anyone else: 403; an unknown id: 404. " +
    "503 `storage_unavailable` when the store is not configured.",
} satisfies DescriptionsOf<typeof mediaOperations>;
