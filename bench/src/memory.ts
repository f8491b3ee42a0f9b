// Resident memory of a process under test, for `pnpm bench`: VmRSS from /proc/<pid>/status (Linux),
// sampled every few milliseconds by a worker thread, so sampling goes on while the runner's main
// thread is blocked waiting for the load generator (spawnSync). Elsewhere there is no /proc and
// every figure is undefined (printed as "-").
import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";

const KIB = 1024;

/** The process's resident set in MiB, or undefined when it cannot be read (gone, or not Linux). */
export const rssMiB = (pid: number | undefined): number | undefined => {
  if (pid === undefined) {
    return undefined;
  }
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));

    return match ? Number(match[1]) / KIB : undefined;
  } catch {
    return undefined;
  }
};

type RssWatch = {
  /** Starts a new window: the peak becomes the current figure. */
  reset(): void;
  /** The highest figure seen since the last reset (MiB), or undefined when nothing could be read. */
  peak(): number | undefined;
  stop(): Promise<void>;
};

// The sampler thread: keeps the highest VmRSS (kB) in cell 0; the runner writes -1 there to reset.
const sampler = `
const { workerData } = require("node:worker_threads");
const { readFileSync } = require("node:fs");
const { pid, intervalMs, cells } = workerData;
const peak = new Int32Array(cells);
const pause = new Int32Array(new SharedArrayBuffer(4));
for (;;) {
  let kib = -1;
  try {
    const match = /^VmRSS:\\s+(\\d+)\\s+kB$/m.exec(readFileSync("/proc/" + pid + "/status", "utf8"));
    if (match) kib = Number(match[1]);
  } catch {}
  if (Atomics.load(peak, 1) === 1) break;
  if (kib > Atomics.load(peak, 0)) Atomics.store(peak, 0, kib);
  Atomics.wait(pause, 0, 0, intervalMs);
}
`;

/** Samples `pid`'s VmRSS every `intervalMs` until stopped. */
export const watchRss = (pid: number | undefined, intervalMs = 10): RssWatch => {
  const cells = new SharedArrayBuffer(8);
  const view = new Int32Array(cells);
  view[0] = -1;
  const worker =
    pid === undefined
      ? undefined
      : new Worker(sampler, { eval: true, workerData: { pid, intervalMs, cells } });
  worker?.unref();

  return {
    reset() {
      const now = rssMiB(pid);
      Atomics.store(view, 0, now === undefined ? -1 : Math.round(now * KIB));
    },
    peak() {
      const kib = Atomics.load(view, 0);

      return kib < 0 ? undefined : kib / KIB;
    },
    async stop() {
      Atomics.store(view, 1, 1);
      await worker?.terminate();
    },
  };
};

export const fmtMiB = (mib: number | undefined) => (mib === undefined ? "-" : mib.toFixed(0));
