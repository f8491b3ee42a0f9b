// The media processing benchmark (part of `pnpm bench`, BENCH_ONLY matching "media processing"):
// images per second through the worker's image processor on 2 MP JPEGs (metadata stripped, a copy
// and two WebP variants made, a blurhash), beside sharp alone making the same outputs in-process
// (the reference, media-child.ts), each in a fresh process whose peak resident memory is sampled
// from /proc while it works (memory.ts). BENCH_MEDIA_IMAGES (40) sets how many images a run
// processes, BENCH_MEDIA_ROUNDS (3) how many rounds; rounds alternate which side goes first and
// the round with the median ratio is reported, as the HTTP rows do.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fmtMiB, rssMiB, watchRss } from "./memory.ts";

/** One side's run: its throughput and its process's resident memory before and during the work. */
export type MediaRun = {
  imagesPerSecond: number;
  idleMiB: number | undefined;
  peakMiB: number | undefined;
};

export type MediaResult = MediaRun & {
  images: number;
  rounds: number;
  reference: MediaRun;
  table: string;
};

const runSide = async (repo: string, mode: "agora" | "sharp", images: number): Promise<MediaRun> => {
  const child = spawn(
    process.execPath,
    ["--import", "./bench/src/resolve-ts.ts", "bench/src/media-child.ts", mode, String(images)],
    { cwd: repo, stdio: ["pipe", "pipe", "inherit"] },
  );
  const exited = new Promise((resolve) => child.once("exit", resolve));
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
  await exited;
  if (outcome.ready !== outcome.images) {
    throw new Error(`media benchmark (${mode}): ${outcome.images - outcome.ready} images were rejected`);
  }

  return { imagesPerSecond: outcome.images / outcome.seconds, idleMiB, peakMiB };
};

export const runMediaBench = async ({ repo }: { repo: string }): Promise<MediaResult> => {
  const images = Number(process.env.BENCH_MEDIA_IMAGES ?? 40);
  const rounds = Math.max(1, Number(process.env.BENCH_MEDIA_ROUNDS ?? 3));
  const measured: { agora: MediaRun; reference: MediaRun }[] = [];
  for (let round = 0; round < rounds; round += 1) {
    process.stderr.write(`  media processing, round ${round + 1}/${rounds}…\n`);
    if (round % 2 === 0) {
      const agora = await runSide(repo, "agora", images);
      measured.push({ agora, reference: await runSide(repo, "sharp", images) });
    } else {
      const reference = await runSide(repo, "sharp", images);
      measured.push({ agora: await runSide(repo, "agora", images), reference });
    }
  }
  const ratio = (pair: { agora: MediaRun; reference: MediaRun }) =>
    pair.agora.imagesPerSecond / pair.reference.imagesPerSecond;
  measured.sort((a, b) => ratio(a) - ratio(b));
  const median = measured[Math.floor(measured.length / 2)] ?? measured[0];
  if (!median) {
    throw new Error("media benchmark: no round was measured");
  }
  const { agora, reference } = median;
  const table = [
    "| media processing (2 MP JPEG → copy + 320 + 1280 px WebP + blurhash) | images/s | idle MiB | peak MiB |",
    "|---|---|---|---|",
    `| worker's processor, ${images} images handed in at once, one at a time (MEDIA_PROCESSING_CONCURRENCY=1) | ${agora.imagesPerSecond.toFixed(2)} | ${fmtMiB(agora.idleMiB)} | ${fmtMiB(agora.peakMiB)} |`,
    `| reference: sharp alone, same outputs and libvips settings (1 thread, no cache), one at a time | ${reference.imagesPerSecond.toFixed(2)} | ${fmtMiB(reference.idleMiB)} | ${fmtMiB(reference.peakMiB)} |`,
    "",
    `Median of ${rounds} alternating rounds by ratio (${(ratio(median) * 100).toFixed(0)}% of the reference's throughput); idle MiB: the process with its ${images} inputs made, before processing; peak: its highest VmRSS while processing.`,
  ].join("\n");

  return { images, rounds, ...agora, reference, table };
};
