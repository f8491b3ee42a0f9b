// The media processing benchmark (part of `pnpm bench`, BENCH_ONLY matching "media processing"):
// images per second through the worker's image processor on 2 MP JPEGs (metadata stripped, a copy
// and two WebP variants made, a blurhash), and the processing process's peak resident memory,
// sampled from /proc while it works (memory.ts). BENCH_MEDIA_IMAGES (40) sets how many.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fmtMiB, rssMiB, watchRss } from "./memory.ts";

export type MediaResult = {
  images: number;
  imagesPerSecond: number;
  idleMiB: number | undefined;
  peakMiB: number | undefined;
  table: string;
};

export const runMediaBench = async ({ repo }: { repo: string }): Promise<MediaResult> => {
  const images = Number(process.env.BENCH_MEDIA_IMAGES ?? 40);
  const child = spawn(
    process.execPath,
    ["--import", "./bench/src/resolve-ts.ts", "bench/src/media-child.ts", String(images)],
    { cwd: repo, stdio: ["pipe", "pipe", "inherit"] },
  );
  const lines = createInterface({ input: child.stdout });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      lines.once("line", resolve);
      child.once("exit", (code) => reject(new Error(`media benchmark process exited with ${code}`)));
    });
  if ((await next()) !== "ready") {
    throw new Error("media benchmark process did not get ready");
  }
  const idleMiB = rssMiB(child.pid);
  const rss = watchRss(child.pid, 5);
  rss.reset();
  child.stdin.write("go\n");
  const outcome = JSON.parse(await next()) as { images: number; ready: number; seconds: number };
  const peakMiB = rss.peak();
  await rss.stop();
  child.kill("SIGTERM");
  if (outcome.ready !== outcome.images) {
    throw new Error(`media benchmark: ${outcome.images - outcome.ready} images were rejected`);
  }
  const imagesPerSecond = outcome.images / outcome.seconds;
  const table = [
    "| media processing (2 MP JPEG → copy + 320 + 1280 px WebP + blurhash) | images/s | idle MiB | peak MiB |",
    "|---|---|---|---|",
    `| ${outcome.images} images, one at a time (MEDIA_PROCESSING_CONCURRENCY=1) | ${imagesPerSecond.toFixed(1)} | ${fmtMiB(idleMiB)} | ${fmtMiB(peakMiB)} |`,
  ].join("\n");

  return { images: outcome.images, imagesPerSecond, idleMiB, peakMiB, table };
};
