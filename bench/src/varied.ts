// Listing reads as varied traffic sends them, instead of one query repeated (which measures only
// the coalescing of identical searches in flight): search terms drawn from a Zipf distribution over
// more than 10,000 terms built from the seeded listings, browse over categories and pages, and
// listing reads spread over the seeded ids. Each is measured against the API as it runs (coalescing
// on) and against a second API process started with the bench switch LISTINGS_COALESCE=off; browse
// and search also against a third with the listing page cache off too (LISTINGS_CACHE_ENTRIES=0):
// the queries themselves. Each beside the raw reference running the same SQL on the same requests.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type pg from "pg";
import { marketplace, withClient } from "./data.ts";
import type { BenchContext, RequestSpec, Scenario } from "./scenario.types.ts";

/** How many requests each list holds (a run takes them in turn; more than a run sends). */
const REQUESTS = 200_000;

// mulberry32, seeded: every run sends the same sequence, to Agora and to the reference alike.
const generator = (seed: number) => {
  let state = seed;

  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;

    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
};

/** A sampler of ranks 0..n-1 with P(rank k) ∝ 1 / (k + 1)^s. */
const zipf = (n: number, s: number, random: () => number) => {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k += 1) {
    sum += 1 / (k + 1) ** s;
    cumulative[k] = sum;
  }

  return () => {
    const target = random() * sum;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((cumulative[middle] ?? 0) < target) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }

    return low;
  };
};

const shuffle = <T>(list: T[], random: () => number): T[] => {
  for (let i = list.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j] as T, list[i] as T];
  }

  return list;
};

const listFile = (name: string, lines: string[]) => {
  const dir = mkdtempSync(path.join(tmpdir(), "agora-bench-varied-"));
  // Gone with the run (they are tens of MiB each).
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, `${name}.txt`);
  writeFileSync(file, `${lines.join("\n")}\n`);

  return file;
};

const FILLER = new Set(["and", "made", "daily"]);

export type SearchTerms = { terms: string[]; words: number; pairs: number };

/**
 * The search terms: every word of the listings' search text (name, description, provider name)
 * and every pair of adjacent words, as they occur in the seeded data, in a seeded random order
 * (the Zipf rank). Single words come first: short, common terms are the popular ones. The growth
 * curves (growth.ts) search the same way.
 */
export const searchTerms = async (client: pg.Client): Promise<SearchTerms> => {
  const { rows } = await client.query<{ search_text: string }>("SELECT search_text FROM listings");
  const words = new Set<string>();
  const pairs = new Set<string>();
  for (const { search_text } of rows) {
    const tokens = search_text
      .replace(/[^a-z ]/g, " ")
      .split(/\s+/)
      .filter((token) => token.length >= 3 && !FILLER.has(token));
    for (const [i, token] of tokens.entries()) {
      words.add(token);
      const next = tokens[i + 1];
      if (next !== undefined && next !== token) {
        pairs.add(`${token} ${next}`);
      }
    }
  }
  const random = generator(17);
  const terms = [...shuffle([...words], random), ...shuffle([...pairs], random)];

  return { terms, words: words.size, pairs: pairs.size };
};

/** `count` searches for `terms` drawn Zipf (s = 1) by rank, seeded: the same sequence every run. */
export const searchRequests = (terms: string[], count: number): string[] => {
  const rank = zipf(terms.length, 1, generator(23));

  return Array.from({ length: count }, () => `/api/v1/listings?q=${encodeURIComponent(terms[rank()] ?? "")}`);
};

let searchList: Promise<SearchTerms & { file: string }> | undefined;
const searchPaths = (databaseUrl: string) => {
  searchList ??= (async () => {
    await marketplace(databaseUrl);
    const found = await withClient(databaseUrl, searchTerms);
    if (found.terms.length < 10_000) {
      throw new Error(`bench: only ${found.terms.length} search terms in the seeded data`);
    }

    return { ...found, file: listFile("search", searchRequests(found.terms, REQUESTS)) };
  })();

  return searchList;
};

/** Browse: a quarter without a category, else one of the categories (Zipf); pages Zipf over 25. */
let browseList: Promise<string> | undefined;
const browsePaths = (databaseUrl: string) => {
  browseList ??= (async () => {
    const { categoryIds } = await marketplace(databaseUrl);
    const random = generator(29);
    const categories = shuffle([...categoryIds], random);
    const category = zipf(categories.length, 1, random);
    const page = zipf(25, 1, random);
    const lines = Array.from({ length: REQUESTS }, () => {
      const offset = page() * 20;
      const query = random() < 0.25 ? "" : `category_id=${categories[category()]}&`;

      return `/api/v1/listings?${query}offset=${offset}&limit=20`;
    });

    return listFile("browse", lines);
  })();

  return browseList;
};

/** Listing reads: every publicly visible seeded listing, in a seeded random order, uniformly. */
let readList: Promise<{ file: string; ids: number }> | undefined;
const readPaths = (databaseUrl: string) => {
  readList ??= (async () => {
    const { visibleListingIds } = await marketplace(databaseUrl);
    const random = generator(31);
    const lines = Array.from(
      { length: REQUESTS },
      () => `/api/v1/listings/${visibleListingIds[Math.floor(random() * visibleListingIds.length)]}`,
    );

    return { file: listFile("read", lines), ids: visibleListingIds.length };
  })();

  return readList;
};

/** One API process per switched-off mode, shared by the scenarios below (stopped when the run ends). */
const apis = new Map<string, Promise<string>>();
const apiWith = (env: Record<string, string>) => (context: BenchContext) => {
  const key = JSON.stringify(env);
  const started = apis.get(key) ?? context.startApi(env).then((api) => api.url);
  apis.set(key, started);

  return started;
};

type Mode = { label: string; api: (context: BenchContext) => Promise<string | undefined> };

const served: Mode = { label: "coalescing on", api: async () => undefined };
const uncoalesced: Mode = { label: "coalescing off", api: apiWith({ LISTINGS_COALESCE: "off" }) };
// The queries themselves: neither shared in flight nor kept (the listing page cache holds browse and
// search pages only, so listing reads have no such row).
const uncached: Mode = {
  label: "coalescing and cache off",
  api: apiWith({ LISTINGS_COALESCE: "off", LISTINGS_CACHE_ENTRIES: "0" }),
};

const varied = (
  name: string,
  path: string,
  paths: (databaseUrl: string) => Promise<string>,
  modes: Mode[] = [served, uncoalesced, uncached],
): Scenario[] =>
  modes.map((mode) => ({
    name: `${name}, ${mode.label}`,
    request: { path },
    connections: [50],
    prepare: async (context): Promise<Partial<RequestSpec>> => {
      const [pathsFile, apiUrl] = await Promise.all([paths(context.databaseUrl), mode.api(context)]);

      return { pathsFile, ...(apiUrl === undefined ? {} : { apiUrl }) };
    },
  }));

/** What the varied scenarios drew from, for the report. */
const summary = async ({ databaseUrl }: BenchContext): Promise<string> => {
  const [search, reads, { categoryIds }] = await Promise.all([
    searchPaths(databaseUrl),
    readPaths(databaseUrl),
    marketplace(databaseUrl),
  ]);
  const n = (value: number) => value.toLocaleString("en-US");

  return `search terms Zipf (s=1) over ${n(search.terms.length)} terms (${n(search.words)} words and ${n(search.pairs)} adjacent pairs of the seeded listings' text); browse: a quarter without category, else ${categoryIds.length} categories (Zipf), pages Zipf over 25 (limit 20); reads uniform over the ${n(reads.ids)} visible of the seeded listings`;
};

const reads = varied(
  "GET /listings/{id} (spread)",
  "/api/v1/listings",
  async (databaseUrl) => (await readPaths(databaseUrl)).file,
  [served, uncoalesced],
);

export const variedScenarios: Scenario[] = [
  ...varied("GET /listings (browse, varied)", "/api/v1/listings", browsePaths),
  ...varied(
    "GET /listings?q (search, Zipf)",
    "/api/v1/listings",
    async (databaseUrl) => (await searchPaths(databaseUrl)).file,
  ),
  // The summary follows the first of these rows (the core tier runs that one; tiers.ts).
  ...reads.map((scenario, i) => (i === 0 ? { ...scenario, report: summary } : scenario)),
];
