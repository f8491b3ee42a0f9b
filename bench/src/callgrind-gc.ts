// Preloaded (`node --expose-gc --import`) into the servers `pnpm bench:callgrind` measures: on
// SIGUSR2 it collects all garbage and appends a line to $CALLGRIND_GC_FILE. Each counted burst
// then starts from the same heap, so the collections inside it fall at the same requests every run.
import { appendFileSync } from "node:fs";

const gc = (globalThis as { gc?: () => void }).gc;
const marker = process.env.CALLGRIND_GC_FILE;
if (gc && marker) {
  process.on("SIGUSR2", () => {
    gc();
    appendFileSync(marker, "gc\n");
  });
}
