import type { ObjectStore } from "./media.ports";
import { type MediaAsset, type MediaVariantName, READ_URL_TTL_SECONDS, servedKeys } from "./media.types";

/**
 * A public image's read URL is signed at the start of its minute and lives the read-URL lifetime
 * (5 minutes) from then: the same URL all minute, and never valid longer than 5 minutes.
 */
export const PUBLIC_URL_PERIOD_SECONDS = 60;

/** A served rendition with its read URL. */
export type ServedRendition = { url: string; width: number; height: number };

/** An asset's read URLs, and until when they all work. */
export type MediaUrls = {
  url: string;
  expiresAt: Date;
  variants: Array<ServedRendition & { name: MediaVariantName }>;
};

/**
 * The read URLs of a ready asset; null for any other (pending, processing or rejected: nobody, its
 * owner included, gets a URL to bytes that were not processed, so an upload's metadata is never
 * served). A ready image is served from its processed copy and variants, a ready video from its
 * copy (`media/<id>`), never from the uploaded object. Every read URL lives at most 5 minutes from
 * its signing (the API's read-URL lifetime). Public assets get URLs signed at the start of the
 * current minute, so every read within the minute answers the same URLs and CDN and app caches hit
 * (at least 4 minutes of validity are left whenever one is handed out); private ones are signed now
 * (docs/media.md).
 */
export const mediaUrls = async (
  objects: ObjectStore,
  asset: MediaAsset,
  now: Date,
): Promise<MediaUrls | null> => {
  if (asset.processing !== "ready") {
    return null;
  }
  const signing =
    asset.visibility === "public"
      ? {
          at: new Date(
            Math.floor(now.getTime() / (PUBLIC_URL_PERIOD_SECONDS * 1000)) * PUBLIC_URL_PERIOD_SECONDS * 1000,
          ),
          expiresInSeconds: READ_URL_TTL_SECONDS,
        }
      : { at: now, expiresInSeconds: READ_URL_TTL_SECONDS };
  const expiresAt = new Date(signing.at.getTime() + signing.expiresInSeconds * 1000);
  const keys = servedKeys(asset.id);
  const image = asset.image;
  if (!image) {
    // A ready video, from its served copy.
    return { url: await objects.presignRead(keys.video, signing), expiresAt, variants: [] };
  }
  const [url, thumb, display] = await Promise.all([
    objects.presignRead(keys.full, signing),
    objects.presignRead(keys.thumb, signing),
    objects.presignRead(keys.display, signing),
  ]);

  return {
    url,
    expiresAt,
    variants: [
      { name: "thumb", url: thumb, ...image.variants.thumb },
      { name: "display", url: display, ...image.variants.display },
    ],
  };
};
