// The media processing benchmark's measured process (media.ts starts it): the worker's image
// processor (@agora/adapters' sharp adapter, with the worker's default settings: one image at a
// time, libvips on one thread, no cache, 50 MP limit) over 2 MP JPEGs. It makes its inputs first,
// says "ready" on stdout, waits for a line on stdin (the runner resets its RSS peak meanwhile),
// processes them, and prints one JSON line with what it did.
// Usage: node --import ./bench/src/resolve-ts.ts bench/src/media-child.ts <images>
import { createInterface } from "node:readline";
import { createSharpMediaProcessor } from "@agora/adapters/media/sharp-media-processor";
import sharp from "sharp";

const count = Number(process.argv[2] ?? 40);
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
const processor = createSharpMediaProcessor({ concurrency: 1, maxInputPixels: 50_000_000 });
process.stdout.write("ready\n");
await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once("line", () => resolve()));

const started = process.hrtime.bigint();
// As a worker's batch: all handed in at once, processed one at a time by the adapter.
const results = await Promise.all(inputs.map((bytes) => processor.process(bytes, "image/jpeg")));
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const ready = results.filter((result) => result.kind === "image").length;
process.stdout.write(
  `${JSON.stringify({ images: count, ready, seconds, inputMiB: inputs.reduce((n, b) => n + b.length, 0) / 2 ** 20 })}\n`,
);
