import { describe, expect, it } from "vitest";
import { checkUploadQuota, type PendingUpload, UPLOAD_QUOTA_WINDOW_MS } from "./upload-quota";

const now = new Date("2026-11-26T12:00:00Z");
const MIB = 1024 * 1024;
const ago = (ms: number, sizeBytes = MIB): PendingUpload => ({
  createdAt: new Date(now.getTime() - ms),
  sizeBytes,
});
const HOUR = 3600_000;

describe("checkUploadQuota", () => {
  it("allows an upload while the count and the bytes stay within the quota, the limit included", () => {
    const pending = [ago(HOUR), ago(2 * HOUR)];
    expect(checkUploadQuota(pending, MIB, { maxPending: 3, maxPendingBytes: 3 * MIB }, now)).toEqual({
      allowed: true,
    });
    expect(checkUploadQuota([], 10 * MIB, { maxPending: 1, maxPendingBytes: 10 * MIB }, now)).toEqual({
      allowed: true,
    });
  });

  it("refuses one upload too many, waiting until the oldest pending one leaves the window", () => {
    const pending = [ago(2 * HOUR), ago(20 * HOUR), ago(HOUR)];
    expect(checkUploadQuota(pending, MIB, { maxPending: 3, maxPendingBytes: 0 }, now)).toEqual({
      allowed: false,
      quota: "count",
      limit: 3,
      remaining: 0,
      retryAfterSeconds: 4 * 3600,
    });
    // A quota lowered below what is pending: as many must leave as are over it.
    expect(checkUploadQuota(pending, MIB, { maxPending: 2, maxPendingBytes: 0 }, now)).toMatchObject({
      quota: "count",
      retryAfterSeconds: 22 * 3600,
    });
  });

  it("refuses bytes over the quota, waiting until enough of the oldest bytes leave; the count is checked first", () => {
    const pending = [ago(23 * HOUR, 4 * MIB), ago(22 * HOUR, 4 * MIB), ago(HOUR, 4 * MIB)];
    const quota = { maxPending: 10, maxPendingBytes: 16 * MIB };
    expect(checkUploadQuota(pending, 4 * MIB, quota, now)).toEqual({ allowed: true });
    // 12 MiB pending, 4 left: 10 MiB needs the two oldest gone (8 MiB freed ≥ 6 MiB over).
    expect(checkUploadQuota(pending, 10 * MIB, quota, now)).toEqual({
      allowed: false,
      quota: "bytes",
      limit: 16 * MIB,
      remaining: 4 * MIB,
      retryAfterSeconds: 2 * 3600,
    });
    expect(
      checkUploadQuota(pending, 10 * MIB, { maxPending: 3, maxPendingBytes: 16 * MIB }, now),
    ).toMatchObject({
      quota: "count",
    });
  });

  it("never answers a wait under a second, nor a short one for an upload larger than the whole quota", () => {
    const edge = [ago(UPLOAD_QUOTA_WINDOW_MS - 10)];
    expect(checkUploadQuota(edge, MIB, { maxPending: 1, maxPendingBytes: 0 }, now)).toMatchObject({
      retryAfterSeconds: 1,
    });
    expect(checkUploadQuota([], 10 * MIB, { maxPending: 0, maxPendingBytes: 5 * MIB }, now)).toMatchObject({
      quota: "bytes",
      retryAfterSeconds: UPLOAD_QUOTA_WINDOW_MS / 1000,
    });
  });

  it("counts nothing with both quotas off (0)", () => {
    const many = Array.from({ length: 1000 }, () => ago(HOUR, 10 * MIB));
    expect(checkUploadQuota(many, 10 * MIB, { maxPending: 0, maxPendingBytes: 0 }, now)).toEqual({
      allowed: true,
    });
  });
});
