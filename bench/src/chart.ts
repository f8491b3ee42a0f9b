// `pnpm bench:chart <result.json> [out.svg]`: draws the chart of a bench result again (results.ts),
// e.g. after the chart changed or for a result kept from another machine. Writes beside the JSON
// (same name, .svg) unless given where.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type BenchResult, renderChart } from "./results.ts";

/** Renders `file`'s chart to `out` (default: `file` with .svg); answers the path written. */
export const rechart = async (file: string, out = `${file.replace(/\.json$/, "")}.svg`) => {
  const result = JSON.parse(readFileSync(file, "utf8")) as BenchResult;
  if (!Array.isArray(result.rows) || !result.machine) {
    throw new Error(`${file} is not a bench result (bench/results/*.json)`);
  }
  writeFileSync(out, await renderChart(result));

  return out;
};

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [file, out] = process.argv.slice(2);
  if (!file) {
    process.stderr.write("usage: pnpm bench:chart <bench/results/….json> [out.svg]\n");
    process.exit(2);
  }
  // Paths as given where the command was typed (pnpm runs scripts from the workspace root).
  const here = (given: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), given);
  process.stdout.write(`${await rechart(here(file), out && here(out))}\n`);
}
