// The media processing benchmark's measured process (media.ts starts it, once per side and round).
// `agora`: the worker's image processor (@agora/adapters' sharp adapter, with the worker's default
// settings: one image at a time, libvips on one thread, no cache, 50 MP limit). `sharp`: the
// reference, sharp alone making the same outputs in-process with the same libvips settings (the
// copy at most 2560 px in the declared type, WebP 320 and 1280 px, a 32 px raw copy), without what
// the adapter adds (the magic-number check, the header's pixel check, the BlurHash encoding, the
// semaphore). Over 2 MP JPEGs. It makes its inputs first, says "ready" on stdout, waits for a line
// on stdin (the runner resets its RSS peak meanwhile), processes them, and prints one JSON line
// with what it did.
// Usage: node --import ./bench/src/resolve-ts.ts bench/src/media-child.ts <agora|sharp> <images>
import { createInterface } from "node:readline";
import { createSharpMediaProcessor } from "@agora/adapters/media/sharp-media-processor";
import { mediaVariantWidths } from "@agora/domain/media/media.types";
import sharp from "sharp";

const mode = process.argv[2] === "sharp" ? "sharp" : "agora";
const count = Number(process.argv[3] ?? 40);
// 1600 × 1250 = 2 000 000 pixels, noisy like a photo (a flat image would compress to nothing).
const inputs = await Promise.all(
  Array.from({ length: count }, (_, index) =>
    sharp({
      create: {
        width: 1600,
        height: 1250,
        channels: 3,
        background: { r: (index * 37) % 256, g: 120, b: 80 },
        noise: { type: "gaussian", mean: 128, sigma: 40 },
      },
    })
      .jpeg({ quality: 85 })
      .toBuffer(),
  ),
);

/** The reference: the same outputs from sharp alone, one image at a time. */
const sharpAlone = async (bytes: Buffer): Promise<boolean> => {
  const input = () => sharp(bytes, { autoOrient: true });
  await input()
    .resize({ width: 2560, height: 2560, fit: "inside", withoutEnlargement: true })
    .jpeg()
    .toBuffer();
  for (const width of [mediaVariantWidths.thumb, mediaVariantWidths.display]) {
    await input().resize({ width, withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
  }
  await input().resize({ width: 32, height: 32, fit: "inside" }).ensureAlpha().raw().toBuffer();

  return true;
};

const processor =
  mode === "agora" ? createSharpMediaProcessor({ concurrency: 1, maxInputPixels: 50_000_000 }) : null;
if (!processor) {
  sharp.concurrency(1);
  sharp.cache(false);
}
process.stdout.write("ready\n");
await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once("line", () => resolve()));

const started = process.hrtime.bigint();
let ready = 0;
if (processor) {
  // As a worker's batch: all handed in at once, processed one at a time by the adapter.
  const results = await Promise.all(inputs.map((bytes) => processor.process(bytes, "image/jpeg")));
  ready = results.filter((result) => result.kind === "image").length;
} else {
  for (const bytes of inputs) {
    ready += (await sharpAlone(bytes)) ? 1 : 0;
  }
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
process.stdout.write(
  `${JSON.stringify({ images: count, ready, seconds, inputMiB: inputs.reduce((n, b) => n + b.length, 0) / 2 ** 20 })}\n`,
);
