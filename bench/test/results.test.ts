import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterEach, describe, expect, it } from "vitest";
import { rechart } from "../src/chart.ts";
import { fileStamp, renderChart, writeResult } from "../src/results.ts";
import { sampleResult } from "./fixture.ts";

type Node = Record<string, unknown>;

/** Every element named `tag` under `node`, depth first, in document order. */
const elements = (node: unknown, tag: string): Node[] => {
  if (Array.isArray(node)) {
    return node.flatMap((child) => elements(child, tag));
  }
  if (node === null || typeof node !== "object") {
    return [];
  }
  return Object.entries(node as Node).flatMap(([key, value]) => [
    ...(key === tag
      ? (Array.isArray(value) ? value : [value]).filter((v): v is Node => typeof v === "object")
      : []),
    ...(key.startsWith("@_") ? [] : elements(value, tag)),
  ]);
};

/** The mark group Vega draws for the Vega-Lite mark named `name`. */
const marks = (svg: string, name: string): Node => {
  const tree = parse(svg);
  const groups = elements(tree, "g").filter((g) =>
    String(g["@_class"] ?? "")
      .split(" ")
      .includes(`${name}_marks`),
  );
  expect(groups).toHaveLength(1);

  return groups[0] as Node;
};

/** The SVG as a tree: attributes kept, text kept as written (not as numbers). */
const parse = (svg: string): unknown =>
  new XMLParser({
    ignoreAttributes: false,
    parseTagValue: false,
    isArray: (tag) => ["g", "path", "text", "line"].includes(tag),
  }).parse(svg);

const texts = (group: Node) => elements(group, "text").map((text) => String(text["#text"] ?? ""));

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe("bench chart", () => {
  it("is an SVG document with one ratio bar per row with a reference, its ratio as text", async () => {
    const svg = await renderChart(sampleResult());
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg.startsWith("<svg")).toBe(true);
    // Four rows have a reference; the sign-in row has none.
    expect(elements(marks(svg, "ratio_bars"), "path")).toHaveLength(4);
    expect(texts(marks(svg, "ratio_labels"))).toEqual(["90%", "44%", "130%", "91%"]);
    expect(texts(marks(svg, "no_reference")).filter(Boolean)).toEqual(["no reference"]);
    // The 80% and 100% guides.
    expect(elements(marks(svg, "guides"), "line")).toHaveLength(2);
    // p99 of both sides where there is a reference, Agora's alone otherwise.
    expect(elements(marks(svg, "p99_bars"), "path")).toHaveLength(9);
    expect(texts(marks(svg, "p99_labels"))).toEqual(
      expect.arrayContaining(["9.5", "8.1", "40.0", "20.0", "800.0"]),
    );
  });

  it("labels each row, with its connection count where a name has several, in run order", async () => {
    const svg = await renderChart(sampleResult());
    const labels = elements(parse(svg), "g")
      .filter((g) => String(g["@_class"] ?? "").includes("role-axis-label"))
      .flatMap((g) => texts(g));
    expect(labels).toEqual(
      expect.arrayContaining([
        "GET /health",
        "GET /listings/{id}",
        "GET /listings?q (search) @1",
        "GET /listings?q (search) @50",
        "POST /auth/login",
      ]),
    );
    expect(labels.indexOf("GET /health")).toBeLessThan(labels.indexOf("POST /auth/login"));
    expect(svg).toContain("AMD EPYC 7B13, 2 cores");
  });
});

describe("bench result files", () => {
  it("writes the JSON and the chart under the run's time and as latest", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "bench-results-"));
    dirs.push(dir);
    const result = sampleResult();
    const written = await writeResult(result, dir);
    expect(fileStamp(result.startedAt)).toBe("2026-11-26T13-45-07Z");
    expect(readdirSync(dir).sort()).toEqual([
      "2026-11-26T13-45-07Z.json",
      "2026-11-26T13-45-07Z.svg",
      "latest.json",
      "latest.svg",
    ]);
    expect(JSON.parse(readFileSync(written.json, "utf8"))).toEqual(result);
    expect(readFileSync(path.join(dir, "latest.json"), "utf8")).toBe(readFileSync(written.json, "utf8"));
    expect(readFileSync(path.join(dir, "latest.svg"), "utf8")).toBe(readFileSync(written.svg, "utf8"));
  });

  it("draws the chart again from a JSON result (pnpm bench:chart)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "bench-results-"));
    dirs.push(dir);
    const { json, svg } = await writeResult(sampleResult(), dir);
    rmSync(svg);
    expect(await rechart(json)).toBe(svg);
    expect(readFileSync(svg, "utf8")).toBe(await renderChart(sampleResult()));
    const other = path.join(dir, "other.svg");
    expect(await rechart(json, other)).toBe(other);
    await expect(rechart(path.join(dir, "missing.json"))).rejects.toThrow();
  });

  it("refuses a JSON file that is not a bench result", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "bench-results-"));
    dirs.push(dir);
    const file = path.join(dir, "other.json");
    (await import("node:fs")).writeFileSync(file, JSON.stringify({ hello: 1 }));
    await expect(rechart(file)).rejects.toThrow(/not a bench result/);
  });
});
