/**
 * Data exports (docs/accounts.md, "Your data"): one JSON document of what an account holds, built
 * by the outbox worker, stored privately and downloadable for a day; at most one request a day.
 */

/** A request opens the next one this long after it (the "one a day" rule). */
export const EXPORT_REQUEST_INTERVAL_SECONDS = 24 * 3600;
/** A ready export is downloadable this long after it was built, then its object is deleted. */
export const EXPORT_LIFETIME_SECONDS = 24 * 3600;
/** The lifetime of a presigned read URL of an export (the SPEC's 5-minute read URL). */
export const EXPORT_READ_URL_SECONDS = 300;
/** The rows of each kind an export holds at most (newest first): every query is bounded. */
export const EXPORT_ROWS_PER_KIND = 10_000;
/** The format named in the document, changed when its shape changes incompatibly. */
export const EXPORT_FORMAT = "agora-export/1";

export type DataExportStatus = "pending" | "ready" | "expired" | "failed";

export type DataExport = {
  id: string;
  userId: string;
  status: DataExportStatus;
  requestedAt: Date;
  readyAt: Date | null;
  expiresAt: Date | null;
  objectKey: string | null;
  sizeBytes: number | null;
};

/** The object key of an export: private, never served by the media routes. */
export const exportObjectKey = (userId: string, exportId: string): string =>
  `exports/${userId.toLowerCase()}/${exportId.toLowerCase()}.json`;

/**
 * An export's status as the caller sees it at `now`: a ready export past its `expires_at` is
 * expired even before the expiry event deleted its object.
 */
export const exportStatusAt = (exported: DataExport, now: Date): DataExportStatus =>
  exported.status === "ready" && exported.expiresAt !== null && exported.expiresAt <= now
    ? "expired"
    : exported.status;

/**
 * Seconds until a new request is allowed after the newest one (`requestedAt`), or 0 when it is
 * allowed now. Whole seconds, rounded up, so `Retry-After` never invites a request that is refused.
 */
export const secondsUntilNextExport = (requestedAt: Date, now: Date): number => {
  const allowedAt = requestedAt.getTime() + EXPORT_REQUEST_INTERVAL_SECONDS * 1000;

  return Math.max(0, Math.ceil((allowedAt - now.getTime()) / 1000));
};

/** What an export holds, as read by the repository (snake_case rows, already JSON-safe). */
export type ExportContents = {
  user: Record<string, unknown>;
  provider: Record<string, unknown> | null;
  listings: Record<string, unknown>[];
  orders: Record<string, unknown>[];
  payments: Record<string, unknown>[];
  messages: Record<string, unknown>[];
  moments: Record<string, unknown>[];
  comments: Record<string, unknown>[];
  notifications: Record<string, unknown>[];
  media: Record<string, unknown>[];
};

/**
 * The export document: the format, when it was generated, the contents, and how to read the media
 * it lists (the objects themselves are not in it: each asset's bytes are read through
 * `GET /api/v1/media/{id}` by its id, which answers a fresh short-lived link while the caller may
 * read it).
 */
export const exportDocument = (contents: ExportContents, generatedAt: Date): Uint8Array =>
  new TextEncoder().encode(
    JSON.stringify({
      format: EXPORT_FORMAT,
      generated_at: generatedAt.toISOString(),
      media_links: "GET /api/v1/media/{id} answers a short-lived download link of each media asset listed",
      ...contents,
    }),
  );
