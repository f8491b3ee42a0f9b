/**
 * The per-account quota on pending uploads (docs/media.md, "Pending uploads"). An upload is
 * **pending** from the moment its URL is handed out until a record takes it (`attached_at` set),
 * the orphan purge expires it, or 24 hours pass since it was requested (the orphan purge's age: it
 * then goes). Confirming the upload or processing it does not end it: the object still costs
 * storage until a record holds it. Its declared `size_bytes` count for exactly as long.
 */

/** How long a requested upload counts at most: the orphan purge's age. */
export const UPLOAD_QUOTA_WINDOW_MS = 24 * 3600_000;

/** Pending uploads one account may have at once (count and declared bytes); 0 turns either off. */
export type UploadQuota = { maxPending: number; maxPendingBytes: number };

/** Defaults a busy real member never meets: 100 uploads, 512 MiB (about 51 uploads at the 10 MiB maximum). */
export const uploadQuotaDefaults: UploadQuota = { maxPending: 100, maxPendingBytes: 512 * 1024 * 1024 };

/** One pending upload, as far as the quota is concerned. */
export type PendingUpload = { createdAt: Date; sizeBytes: number };

export type UploadQuotaVerdict =
  | { allowed: true }
  | {
      allowed: false;
      /** Which quota refused (the count is checked first). */
      quota: "count" | "bytes";
      /** The refusing quota's limit, and what of it is left (uploads, or bytes). */
      limit: number;
      remaining: number;
      /** Seconds until enough of the pending uploads stop counting for this one to fit (at least 1). */
      retryAfterSeconds: number;
    };

/**
 * Whether one more upload of `sizeBytes` fits beside `pending` (the account's pending uploads,
 * any order). When it does not, the wait is the time until enough of them leave the window
 * (oldest first), without counting on any being attached meanwhile.
 */
export const checkUploadQuota = (
  pending: readonly PendingUpload[],
  sizeBytes: number,
  quota: UploadQuota,
  now: Date,
): UploadQuotaVerdict => {
  const oldestFirst = [...pending].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const waitUntilGone = (count: number): number => {
    const last = oldestFirst[Math.min(count, oldestFirst.length) - 1];
    const leavesAt = last ? last.createdAt.getTime() + UPLOAD_QUOTA_WINDOW_MS : now.getTime();

    return Math.max(1, Math.ceil((leavesAt - now.getTime()) / 1000));
  };

  if (quota.maxPending > 0 && oldestFirst.length + 1 > quota.maxPending) {
    return {
      allowed: false,
      quota: "count",
      limit: quota.maxPending,
      remaining: 0,
      retryAfterSeconds: waitUntilGone(oldestFirst.length + 1 - quota.maxPending),
    };
  }
  const bytes = oldestFirst.reduce((sum, upload) => sum + upload.sizeBytes, 0);
  if (quota.maxPendingBytes > 0 && bytes + sizeBytes > quota.maxPendingBytes) {
    // The oldest uploads that must leave for this one to fit.
    const excess = bytes + sizeBytes - quota.maxPendingBytes;
    let freed = 0;
    let leaving = 0;
    while (freed < excess && leaving < oldestFirst.length) {
      freed += oldestFirst[leaving]?.sizeBytes ?? 0;
      leaving += 1;
    }
    // Larger than the whole quota (configured below the 10 MiB maximum): it never fits.
    const never = freed < excess;

    return {
      allowed: false,
      quota: "bytes",
      limit: quota.maxPendingBytes,
      remaining: Math.max(0, quota.maxPendingBytes - bytes),
      retryAfterSeconds: never ? UPLOAD_QUOTA_WINDOW_MS / 1000 : waitUntilGone(leaving),
    };
  }

  return { allowed: true };
};
