import type { MediaProcessor, ProcessedMedia } from "@agora/domain/media/media.ports";
import { type MediaMimeType, mediaVariantWidths, type ProcessedImage } from "@agora/domain/media/media.types";
import { encode } from "blurhash";
import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";

export type MediaProcessingSettings = { concurrency: number; maxInputPixels: number };

/** The served copy is at most this many pixels on its longer side (JPEG and WebP decode shrunk to it). */
const FULL_MAX_SIDE = 2560;
/** The blurhash is computed from a copy this small, with 4×3 components. */
const BLURHASH_SIDE = 32;

const formatOf = { "image/jpeg": "jpeg", "image/png": "png", "image/webp": "webp" } as const;

/** A counting semaphore: at most `limit` holders at once, the others queue in order. */
const semaphore = (limit: number) => {
  let active = 0;
  const waiting: Array<() => void> = [];

  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (active >= limit) {
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else {
      active += 1;
    }
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) {
        next();
      } else {
        active -= 1;
      }
    }
  };
};

/**
 * The image processor over sharp (libvips) and file-type. Bounded: libvips runs one thread per
 * image and keeps no operation cache, an input over `maxInputPixels` is refused from its header
 * (never decoded), and at most `concurrency` images are processed at once in this process.
 * Every output is written without metadata (sharp keeps none unless asked), after the EXIF
 * orientation is applied to the pixels.
 */
export const createSharpMediaProcessor = (settings: MediaProcessingSettings): MediaProcessor => {
  sharp.concurrency(1);
  sharp.cache(false);
  const oneAtATime = semaphore(settings.concurrency);

  const processImage = async (bytes: Uint8Array, declared: Exclude<MediaMimeType, "video/mp4">) => {
    const input = () =>
      sharp(bytes, { limitInputPixels: settings.maxInputPixels, failOn: "error", autoOrient: true });
    const { data: full, info } = await input()
      .resize({ width: FULL_MAX_SIDE, height: FULL_MAX_SIDE, fit: "inside", withoutEnlargement: true })
      .toFormat(formatOf[declared])
      .toBuffer({ resolveWithObject: true });
    const variant = async (width: number) => {
      const made = await input()
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer({ resolveWithObject: true });

      return { bytes: made.data, width: made.info.width, height: made.info.height };
    };
    const thumb = await variant(mediaVariantWidths.thumb);
    const display = await variant(mediaVariantWidths.display);
    const pixels = await input()
      .resize({ width: BLURHASH_SIDE, height: BLURHASH_SIDE, fit: "inside" })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const image: ProcessedImage = {
      width: info.width,
      height: info.height,
      blurhash: encode(new Uint8ClampedArray(pixels.data), pixels.info.width, pixels.info.height, 4, 3),
      variants: {
        thumb: { width: thumb.width, height: thumb.height },
        display: { width: display.width, height: display.height },
      },
    };

    return {
      kind: "image",
      image,
      full: full,
      variants: { thumb: thumb.bytes, display: display.bytes },
    } satisfies ProcessedMedia;
  };

  return {
    process: (bytes, declared) =>
      oneAtATime(async (): Promise<ProcessedMedia> => {
        const detected = (await fileTypeFromBuffer(bytes))?.mime;
        if (detected !== declared) {
          return {
            kind: "rejected",
            reason: `its bytes are ${detected ? `a ${detected}` : "of no known type"}, not the declared ${declared}`,
          };
        }
        if (declared === "video/mp4") {
          return { kind: "video" };
        }
        try {
          const header = await sharp(bytes).metadata();
          if ((header.width ?? 0) * (header.height ?? 0) > settings.maxInputPixels) {
            return {
              kind: "rejected",
              reason: `the image has more than ${settings.maxInputPixels} pixels`,
            };
          }

          return await processImage(bytes, declared);
        } catch {
          return { kind: "rejected", reason: `its bytes are not a readable ${declared} image` };
        }
      }),
  };
};
